import { adminRateLimit } from "../../middleware/rate-limit";
import { except } from "hono/combine";
import { createRouter } from "../../lib/openapi";
import { requireAdminToken } from "../../middleware/admin-auth";
import { limitBody, requireJsonBody } from "../../middleware/json-body";
import { registerAccounts } from "./accounts";
import { registerApiKeys } from "./api-keys";
import { registerBookingStatuses } from "./booking-statuses";
import { registerCategories } from "./categories";
import { registerCustomers } from "./customers";
import { registerLocations } from "./locations";
import { registerPromocodes } from "./promocodes";
import { registerStaffers } from "./staffers";
import { registerVoucherTemplates } from "./voucher-templates";
import { registerWorkspaces } from "./workspaces";

/** Management API v1 for operators provisioning businesses; guarded by ADMIN_TOKEN. */
export function adminApi() {
  const router = createRouter();
  router.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
    type: "http",
    scheme: "bearer",
    description: "The Worker's ADMIN_TOKEN secret",
  });
  router.use("*", adminRateLimit);
  router.use(
    "*",
    except((c) => c.req.path.endsWith("/openapi.json"), requireAdminToken),
  );
  router.use("*", limitBody, requireJsonBody);
  registerWorkspaces(router);
  registerLocations(router);
  registerStaffers(router);
  registerApiKeys(router);
  registerAccounts(router);
  registerBookingStatuses(router);
  registerVoucherTemplates(router);
  registerPromocodes(router);
  registerCustomers(router);
  registerCategories(router);
  return router;
}

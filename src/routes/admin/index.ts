import type { AdminEnv } from "../../env";
import { except } from "hono/combine";
import { createRouter } from "../../lib/openapi";
import { requireAdminToken } from "../../middleware/admin-auth";
import { isOneOf } from "../../middleware/exact-routes";
import { adminRateLimit } from "../../middleware/rate-limit";
import { limitBody, requireJsonBody } from "../../middleware/json-body";
import { registerAccounts } from "./accounts";
import { registerApiKeys } from "./api-keys";
import { registerBookingForm } from "./booking-form";
import { registerBookingStatuses } from "./booking-statuses";
import { registerCategories } from "./categories";
import { registerCustomers } from "./customers";
import { registerLocations } from "./locations";
import { registerPromocodes } from "./promocodes";
import { registerResources } from "./resources";
import { registerStaffers } from "./staffers";
import { registerVoucherTemplates } from "./voucher-templates";
import { registerWorkspaces } from "./workspaces";

/** The one route without the admin token (method and exact path): the OpenAPI document. */
export const ADMIN_WITHOUT_TOKEN = [{ method: "get", path: "/openapi.json" }];
const withoutToken = isOneOf(ADMIN_WITHOUT_TOKEN);

/** Management API v1 for operators provisioning businesses; guarded by ADMIN_TOKEN. */
export function adminApi() {
  const router = createRouter<AdminEnv>();
  router.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
    type: "http",
    scheme: "bearer",
    description: "The Worker's ADMIN_TOKEN secret",
  });
  // Per client address, before the token is checked.
  router.use("*", adminRateLimit);
  router.use("*", except(withoutToken, requireAdminToken));
  router.use("*", limitBody, requireJsonBody);
  registerWorkspaces(router);
  registerLocations(router);
  registerStaffers(router);
  registerApiKeys(router);
  registerAccounts(router);
  registerBookingStatuses(router);
  registerBookingForm(router);
  registerVoucherTemplates(router);
  registerPromocodes(router);
  registerCustomers(router);
  registerCategories(router);
  registerResources(router);
  return router;
}

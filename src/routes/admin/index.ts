import type { AdminEnv } from "../../env";
import { except } from "hono/combine";
import { createRouter } from "../../lib/openapi";
import { requireAdminToken } from "../../middleware/admin-auth";
import { declaredOperation, takesNoKeys } from "../../middleware/operation";
import { adminRateLimit } from "../../middleware/rate-limit";
import { limitBody, requireJsonBody } from "../../middleware/json-body";
import { registerAccounts } from "./accounts";
import { registerApiKeys } from "./api-keys";
import { registerBookingForm } from "./booking-form";
import { registerBookingStatuses } from "./booking-statuses";
import { registerCategories } from "./categories";
import { registerCustomers } from "./customers";
import { registerLocations } from "./locations";
import { registerNotificationSettings } from "./notification-settings";
import { registerPromocodes } from "./promocodes";
import { registerResources } from "./resources";
import { registerStaffers } from "./staffers";
import { registerVoucherTemplates } from "./voucher-templates";
import { registerWorkspaces } from "./workspaces";

/**
 * Management API v1 for operators provisioning businesses; guarded by
 * ADMIN_TOKEN, but for the one route declaring `keys: "none"`, the OpenAPI document.
 */
export function adminApi() {
  const router = createRouter<AdminEnv>();
  router.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
    type: "http",
    scheme: "bearer",
    description: "The Worker's ADMIN_TOKEN secret",
  });
  // Per client address, before the token is checked.
  router.use("*", declaredOperation(router));
  router.use("*", adminRateLimit);
  router.use("*", except(takesNoKeys, requireAdminToken));
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
  registerNotificationSettings(router);
  return router;
}

import type { AdminEnv } from "../../http/env";
import { except } from "hono/combine";
import { createRouter } from "../../http/openapi";
import { requireAdminToken } from "../middleware/admin-auth";
import { afterWrite } from "../middleware/after-write";
import { routeAdminWorkspace } from "../middleware/admin-route";
import { declaredOperation, takesNoKeys } from "../middleware/operation";
import { adminRateLimit } from "../../http/rate-limit";
import { limitBody, requireJsonBody } from "../middleware/json-body";
import { registerAccounts } from "../../pos/http/admin/accounts";
import { registerApiKeys } from "../../tenancy/http/admin/api-keys";
import { registerBookingForm } from "../../tenancy/http/admin/booking-form";
import { registerBookingStatuses } from "../../bookings/http/admin/booking-statuses";
import { registerCategories } from "../../catalogue/http/admin/categories";
import { registerCustomers } from "../../catalogue/http/admin/customers";
import { registerLocations } from "../../catalogue/http/admin/locations";
import { registerNotificationSettings } from "../../messages/http/admin/notification-settings";
import { registerPromocodes } from "../../pos/http/admin/promocodes";
import { registerReports } from "./reports";
import { registerRwgAdmin } from "../../reserve-with-google/http/admin";
import { registerResources } from "./resources";
import { registerStaffers } from "./staffers";
import { registerVoucherTemplates } from "../../pos/http/admin/voucher-templates";
import { registerWorkspaces } from "../../tenancy/http/admin/workspaces";
import { registerShards } from "../../shards/http/admin";
import { defaultBookingStatuses } from "../../bookings/queries/booking-statuses";

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
  router.use("/workspaces/:ws", routeAdminWorkspace);
  router.use("/workspaces/:ws/*", routeAdminWorkspace);
  // A location's zone change has its reports' rollups rebuilt once it committed.
  router.use("/workspaces/:ws/locations/:uuid", afterWrite);
  registerWorkspaces(router, defaultBookingStatuses);
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
  registerShards(router);
  registerReports(router);
  registerRwgAdmin(router);
  return router;
}

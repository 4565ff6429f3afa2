import { except } from "hono/combine";
import { createRouter } from "../../lib/openapi";
import { requireAdminToken } from "../../middleware/admin-auth";
import { limitBody, requireJsonBody } from "../../middleware/json-body";
import { registerLocations } from "./locations";
import { registerStaffers } from "./staffers";
import { registerWorkspaces } from "./workspaces";

/** Management API v1 for operators provisioning businesses; guarded by ADMIN_TOKEN. */
export function adminApi() {
  const router = createRouter();
  router.openAPIRegistry.registerComponent("securitySchemes", "AdminToken", {
    type: "http",
    scheme: "bearer",
    description: "The Worker's ADMIN_TOKEN secret",
  });
  router.use(
    "*",
    except((c) => c.req.path.endsWith("/openapi.json"), requireAdminToken),
  );
  router.use("*", limitBody, requireJsonBody);
  registerWorkspaces(router);
  registerLocations(router);
  registerStaffers(router);
  return router;
}

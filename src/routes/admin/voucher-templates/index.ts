import type { AdminEnv } from "../../../env";
import type { Router } from "../../../lib/openapi";
import * as create from "./create";

export function registerVoucherTemplates(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
}

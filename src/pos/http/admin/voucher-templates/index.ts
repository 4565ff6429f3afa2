import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";

export function registerVoucherTemplates(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
}

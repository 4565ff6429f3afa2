import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as revoke from "./revoke";

export function registerApiKeys(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(revoke.route, revoke.handler);
}

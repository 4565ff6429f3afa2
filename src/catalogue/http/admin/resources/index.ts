import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as list from "./list";

export function registerResources(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
}

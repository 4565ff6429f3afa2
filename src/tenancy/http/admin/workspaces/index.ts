import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as get from "./get";

export function registerWorkspaces(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(get.route, get.handler);
}

import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as create from "./create";
import * as update from "./update";

export function registerLocations(router: Router<AdminEnv>) {
  router.openapi(create.route, create.handler);
  router.openapi(update.route, update.handler);
}

import type { AdminEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import * as list from "./list";
import * as move from "./move";

export function registerShards(router: Router<AdminEnv>) {
  router.openapi(list.route, list.handler);
  router.openapi(move.route, move.handler);
}

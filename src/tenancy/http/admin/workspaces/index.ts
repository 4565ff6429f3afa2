import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import type { WorkspaceSeed } from "../../../queries/workspaces";
import * as create from "./create";
import * as get from "./get";
import * as update from "./update";

/** `seed`: the rows other modules give a new workspace (the composition root knows them). */
export function registerWorkspaces(router: Router<AdminEnv>, seed: WorkspaceSeed) {
  router.openapi(create.route, create.seeding(seed));
  router.openapi(get.route, get.handler);
  router.openapi(update.route, update.handler);
}

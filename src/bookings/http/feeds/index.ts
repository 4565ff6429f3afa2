import type { OpenEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import * as get from "./get";

/** A staffer's calendar feed: its URL carries its own token, so no API key and no workspace. */
export function registerFeeds(router: Router<OpenEnv>) {
  router.openapi(get.route, get.handler);
}

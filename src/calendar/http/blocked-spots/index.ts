import type { Router } from "../../../http/openapi";
import * as create from "./create";

export function registerBlockedSpots(router: Router) {
  router.openapi(create.route, create.handler);
}

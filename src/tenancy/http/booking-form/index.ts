import type { Router } from "../../../http/openapi";
import * as get from "./get";

export function registerBookingForm(router: Router) {
  router.openapi(get.route, get.handler);
}

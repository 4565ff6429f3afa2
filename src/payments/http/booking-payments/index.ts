import type { Router } from "../../../http/openapi";
import * as list from "./list";

export function registerBookingPayments(router: Router) {
  router.openapi(list.route, list.handler);
}

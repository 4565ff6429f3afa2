import type { Router } from "../../../http/openapi";
import * as cartCalendar from "./cart-calendar";
import * as cartNext from "./cart-next";
import * as search from "./search";

export function registerTimeSlots(router: Router) {
  router.openapi(search.route, search.handler);
  router.openapi(cartNext.route, cartNext.handler);
  router.openapi(cartCalendar.route, cartCalendar.handler);
}

import type { Router } from "../../../lib/openapi";
import { registerChanges } from "./changes";
import * as create from "./create";
import * as createCart from "./create-cart";
import * as get from "./get";
import * as ical from "./ical";
import * as list from "./list";

export function registerBookings(router: Router) {
  router.openapi(createCart.route, createCart.handler);
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(ical.route, ical.handler);
  for (const register of registerChanges) register(router);
}

import type { Router } from "../../../http/openapi";
import * as create from "./create";
import * as order from "./order";

export function registerCheckout(router: Router) {
  router.openapi(create.route, create.handler);
  router.openapi(order.route, order.handler);
}

import type { Router } from "../../../http/openapi";
import * as calculate from "./calculate";
import * as cancel from "./cancel";
import * as create from "./create";
import * as get from "./get";
import * as list from "./list";
import * as pay from "./pay";
import * as refund from "./refund";

export function registerOrders(router: Router) {
  router.openapi(calculate.route, calculate.handler);
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(pay.route, pay.handler);
  router.openapi(cancel.route, cancel.handler);
  router.openapi(refund.route, refund.handler);
}

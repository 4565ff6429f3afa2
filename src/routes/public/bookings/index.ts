import type { Router } from "../../../lib/openapi";
import * as cancel from "./cancel";
import * as changeStaffer from "./change-staffer";
import * as complete from "./complete";
import * as create from "./create";
import * as createCart from "./create-cart";
import * as get from "./get";
import * as ical from "./ical";
import * as list from "./list";
import * as publicNotes from "./public-notes";
import * as replaceService from "./replace-service";
import * as reschedule from "./reschedule";
import * as setStatus from "./set-status";

export function registerBookings(router: Router) {
  router.openapi(createCart.route, createCart.handler);
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  router.openapi(ical.route, ical.handler);
  router.openapi(complete.route, complete.handler);
  router.openapi(cancel.route, cancel.handler);
  router.openapi(setStatus.route, setStatus.handler);
  router.openapi(reschedule.route, reschedule.handler);
  router.openapi(changeStaffer.route, changeStaffer.handler);
  router.openapi(replaceService.route, replaceService.handler);
  router.openapi(publicNotes.route, publicNotes.handler);
}

import type { OpenEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import * as cancel from "./cancel";
import * as complete from "./complete";
import * as create from "./create";
import * as createCart from "./create-cart";
import * as createSeries from "./create-series";
import * as get from "./get";
import * as ical from "./ical";
import * as list from "./list";
import * as publicNotes from "./public-notes";
import * as reschedule from "./reschedule";
import * as services from "./services";
import * as staffer from "./staffer";
import * as status from "./status";

export function registerBookings(router: Router) {
  router.openapi(createCart.route, createCart.handler);
  router.openapi(createSeries.route, createSeries.handler);
  router.openapi(create.route, create.handler);
  router.openapi(list.route, list.handler);
  router.openapi(get.route, get.handler);
  // The lifecycle: each through the calendars where busy time changes.
  router.openapi(complete.route, complete.handler);
  router.openapi(cancel.route, cancel.handler);
  router.openapi(status.route, status.handler);
  router.openapi(reschedule.route, reschedule.handler);
  router.openapi(staffer.route, staffer.handler);
  router.openapi(services.route, services.handler);
  router.openapi(publicNotes.route, publicNotes.handler);
}

/** A booking's calendar feed: its link carries its own token, so no API key and no workspace. */
export function registerBookingFeed(router: Router<OpenEnv>) {
  router.openapi(ical.route, ical.handler);
}

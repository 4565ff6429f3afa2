import type { Router } from "../../../http/openapi";
import * as calendarFeed from "./calendar-feed";

/** A staffer's calendar feed, under /staffers beside catalogue's routes (app/ puts it there). */
export function registerStafferFeed(router: Router) {
  router.openapi(calendarFeed.route, calendarFeed.handler);
}

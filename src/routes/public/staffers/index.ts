import type { Router } from "../../../lib/openapi";
import * as calendarFeed from "./calendar-feed";
import { registerExternalCalendars } from "./external-calendars";
import * as list from "./list";

export function registerStaffers(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(calendarFeed.route, calendarFeed.handler);
  registerExternalCalendars(router);
}

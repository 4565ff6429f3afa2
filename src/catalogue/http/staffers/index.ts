import type { Router } from "../../../http/openapi";
import * as calendarFeed from "../../../bookings/http/staffers/calendar-feed";
import { registerExternalCalendars } from "../../../external-calendars/http/staffers/external-calendars";
import * as list from "./list";

export function registerStaffers(router: Router) {
  router.openapi(list.route, list.handler);
  router.openapi(calendarFeed.route, calendarFeed.handler);
  registerExternalCalendars(router);
}

import type { Router } from "../../http/openapi";
import { registerStafferFeed } from "../../bookings/http/staffers";
import { registerStaffers as registerCatalogueStaffers } from "../../catalogue/http/staffers";
import { registerExternalCalendars } from "../../external-calendars/http/staffers/external-calendars";

/**
 * Everything under /staffers: catalogue's list, then what modules above it hang on a
 * staffer (the calendar feed, external calendars). Catalogue cannot import them, so the
 * composition root does, in the order the OpenAPI document lists them.
 */
export function registerStaffers(router: Router) {
  registerCatalogueStaffers(router);
  registerStafferFeed(router);
  registerExternalCalendars(router);
}

import type { AdminEnv } from "../../http/env";
import type { Router } from "../../http/openapi";
import { registerStaffers as registerCatalogueStaffers } from "../../catalogue/http/admin/staffers";
import { registerStafferCalendar } from "../../calendar/http/admin/staffers";

/** Catalogue's staffer routes, then the calendar's under a staffer (catalogue cannot import them). */
export function registerStaffers(router: Router<AdminEnv>) {
  registerCatalogueStaffers(router);
  registerStafferCalendar(router);
}

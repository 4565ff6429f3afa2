import type { AdminEnv } from "../../../../http/env";
import type { Router } from "../../../../http/openapi";
import * as calendar from "./calendar";

/** A staffer's calendar object, audited and rebuilt under catalogue's staffer (app/ puts it there). */
export function registerStafferCalendar(router: Router<AdminEnv>) {
  router.openapi(calendar.auditRoute, calendar.auditHandler);
  router.openapi(calendar.rebuildRoute, calendar.rebuildHandler);
}

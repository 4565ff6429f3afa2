import type { AdminEnv } from "../../http/env";
import type { Router } from "../../http/openapi";
import { registerResources as registerCatalogueResources } from "../../catalogue/http/admin/resources";
import { registerResourceCalendar } from "../../calendar/http/admin/resources";

/** Catalogue's resource routes, then the calendar's under a resource (catalogue cannot import them). */
export function registerResources(router: Router<AdminEnv>) {
  registerCatalogueResources(router);
  registerResourceCalendar(router);
}

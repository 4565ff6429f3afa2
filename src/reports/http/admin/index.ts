import type { AdminEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import type { SaleLinesOf } from "../../rebuild/rebuild-reports";
import * as rebuild from "./rebuild";

export function registerReportsAdmin(router: Router<AdminEnv>, saleLinesOf: SaleLinesOf) {
  router.openapi(rebuild.route, rebuild.handler(saleLinesOf));
}

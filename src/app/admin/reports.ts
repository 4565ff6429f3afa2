import type { AdminEnv } from "../../http/env";
import type { Router } from "../../http/openapi";
import { registerReportsAdmin } from "../../reports/http/admin";
import { saleLinesOf } from "../sale-lines";

/** The reports' management routes, with the pos pricing they need (reports cannot import pos). */
export const registerReports = (router: Router<AdminEnv>) =>
  registerReportsAdmin(router, saleLinesOf);

import type { AdminEnv } from "../../http/env";
import type { Router } from "../../http/openapi";
import { bookingSaleLines, posSaleLines } from "../../pos/rules";
import { registerReportsAdmin } from "../../reports/http/admin";
import type { SaleLinesOf } from "../../reports/rebuild/rebuild-reports";

/**
 * An order's sale as the batches that pay it count it: a booking order's
 * booked services (its cart's), a POS order's lines, priced by the pos rules.
 */
export const saleLinesOf: SaleLinesOf = (order, lines, services) =>
  order.kind === "booking" ? bookingSaleLines(services) : posSaleLines({ order, lines });

/** The reports' management routes, with the pos pricing they need (reports cannot import pos). */
export const registerReports = (router: Router<AdminEnv>) =>
  registerReportsAdmin(router, saleLinesOf);

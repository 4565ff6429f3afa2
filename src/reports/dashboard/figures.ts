import type { Scope } from "../../db/scope";
import { noShowReport } from "../no-shows";
import { revenueReport } from "../revenue";
import { utilizationMatrix, utilizationReport } from "../utilization";
import type { DashboardFigures } from "./views/figures";

/**
 * What a dashboard shows of a location's days `from`..`to`, from the reports
 * themselves (so the page and the API never disagree): the net revenue per
 * day, utilization per staffer and day, and the no-show counts.
 */
export async function loadDashboardFigures(
  scope: Scope,
  q: { locationId: string; from: string; to: string },
): Promise<DashboardFigures> {
  const [revenue, utilization, matrix, noShows] = await Promise.all([
    revenueReport(scope, { ...q, groupBy: "day" }),
    utilizationReport(scope, { ...q, groupBy: "staffer" }),
    utilizationMatrix(scope, q),
    noShowReport(scope, { ...q, groupBy: "service" }),
  ]);
  return {
    revenue: {
      dates: revenue.data.map((r) => r.key ?? ""),
      net: revenue.data.map((r) => r.net),
      totalNet: revenue.totals.net,
    },
    utilization: {
      dates: matrix.days,
      staffers: matrix.staffers.map((s) => s.label),
      cells: matrix.cells,
      total: utilization.totals.utilization,
    },
    noShows: {
      bookings: noShows.totals.bookings,
      didntCome: noShows.totals.didnt_come,
      lateCancels: noShows.totals.late_cancels,
      noShowRate: noShows.totals.no_show_rate,
      lateCancelRate: noShows.totals.late_cancel_rate,
      fees: noShows.totals.fees,
    },
  };
}

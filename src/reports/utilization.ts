import type { Scope } from "../db/scope";
import { dayRangeOf, reportAnswer, type ReportQuery } from "./report-query";
import { minutesOfMs, utilizationTime } from "./utilization-time";
import { byLabel, periodsOf, rate } from "./rules/periods";
import type {
  UtilizationGroup,
  UtilizationReport,
  UtilizationRow,
  UtilizationTotals,
} from "./views/utilization";

type Minutes = Omit<UtilizationTotals, "utilization">;

const withRate = (m: Minutes): UtilizationTotals => ({
  ...m,
  utilization: rate(m.booked_minutes, m.working_minutes),
});

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Utilization of a location's staff on its days `from`..`to`: scheduled
 * working time against booked and blocked calendar time, per staffer or per
 * day, in one D1 round trip.
 */
export async function utilizationReport(
  scope: Scope,
  q: ReportQuery<UtilizationGroup>,
): Promise<UtilizationReport> {
  const range = dayRangeOf(q);
  const time = await utilizationTime(scope, range, q.groupBy);
  let rows: (Minutes & { key: string; label: string })[];
  if (q.groupBy === "staffer") {
    const calendar = new Map(time.calendar.map((c) => [c.stafferId, c]));
    rows = time.staffers
      .map((s) => ({
        key: s.id,
        label: s.name,
        working_minutes: sum(s.working),
        booked_minutes: minutesOfMs(calendar.get(s.id)?.bookedMs ?? 0),
        blocked_minutes: minutesOfMs(calendar.get(s.id)?.blockedMs ?? 0),
      }))
      .sort(byLabel);
  } else {
    const calendar = new Map(time.calendar.map((c) => [c.day, c]));
    rows = periodsOf("day", range.from, range.to).map((p) => ({
      key: p.key,
      label: p.label,
      working_minutes: sum(time.staffers.map((s) => s.working[p.first - range.from] ?? 0)),
      booked_minutes: minutesOfMs(calendar.get(p.first)?.bookedMs ?? 0),
      blocked_minutes: minutesOfMs(calendar.get(p.first)?.blockedMs ?? 0),
    }));
  }
  const data: UtilizationRow[] = rows.map((r) => ({ ...r, ...withRate(r) }));
  const totals = withRate({
    working_minutes: sum(data.map((r) => r.working_minutes)),
    booked_minutes: sum(data.map((r) => r.booked_minutes)),
    blocked_minutes: sum(data.map((r) => r.blocked_minutes)),
  });
  return reportAnswer(q, range, { location: time.location, currency: time.currency, data, totals });
}

/** Utilization per staffer and day: `cells[i][j]` is staffer `i` on day `j` (null: no working time). */
export interface UtilizationMatrix {
  days: string[];
  staffers: { key: string; label: string }[];
  cells: (number | null)[][];
}

/**
 * The heat map of a dashboard: utilization of every staffer on every day of
 * the range (`q.groupBy` is ignored), from the same one round trip.
 */
export async function utilizationMatrix(
  scope: Scope,
  q: Omit<ReportQuery<string>, "groupBy"> & { groupBy?: string },
): Promise<UtilizationMatrix> {
  const range = dayRangeOf({ ...q, groupBy: "" });
  const time = await utilizationTime(scope, range, "both");
  const booked = new Map(time.calendar.map((c) => [`${c.stafferId} ${c.day}`, c.bookedMs]));
  const days = periodsOf("day", range.from, range.to).map((p) => p.key);
  const staffers = time.staffers
    .map((s) => ({ key: s.id, label: s.name, working: s.working }))
    .sort(byLabel);
  return {
    days,
    staffers: staffers.map(({ key, label }) => ({ key, label })),
    cells: staffers.map((s) =>
      s.working.map((working, j) =>
        rate(minutesOfMs(booked.get(`${s.key} ${range.from + j}`) ?? 0), working),
      ),
    ),
  };
}

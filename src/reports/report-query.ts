import { validationError } from "../platform/errors";
import { dateOfDay, dayOfDate } from "./rules/days";
import type { DayRange } from "./queries/report-range";

/** The most days a report spans (from and to included): a leap year. */
export const MAX_REPORT_DAYS = 366;

/** What a report is asked: a location, its days `from`..`to` (`YYYY-MM-DD`, its zone) and a grouping. */
export interface ReportQuery<G extends string> {
  locationId: string;
  from: string;
  to: string;
  groupBy: G;
}

/** Why a range is refused, on its field (null: fine); the route's schema and the use-cases share it. */
export function rangeProblem(
  from: string,
  to: string,
): { field: "from" | "to"; message: string } | null {
  const first = dayOfDate(from);
  const last = dayOfDate(to);
  if (first === null) return { field: "from", message: "Must be a date YYYY-MM-DD." };
  if (last === null) return { field: "to", message: "Must be a date YYYY-MM-DD." };
  if (last < first) return { field: "to", message: "Must be on or after from." };
  if (last - first + 1 > MAX_REPORT_DAYS)
    return { field: "to", message: `A report may span at most ${MAX_REPORT_DAYS} days.` };
  return null;
}

/** The day numbers of a query's range; a bad range is a 422 on its field. */
export function dayRangeOf(q: ReportQuery<string>): DayRange {
  const problem = rangeProblem(q.from, q.to);
  if (problem) throw validationError({ [problem.field]: [problem.message] });
  return { locationId: q.locationId, from: dayOfDate(q.from) ?? 0, to: dayOfDate(q.to) ?? 0 };
}

/** Every report's envelope (views/report.ts reportOf) around its rows and their totals. */
export const reportAnswer = <G extends string, R, T>(
  q: ReportQuery<G>,
  range: DayRange,
  answer: { location: { id: string; timezone: string }; currency: string; data: R[]; totals: T },
) => ({
  location_uuid: answer.location.id,
  from: dateOfDay(range.from),
  to: dateOfDay(range.to),
  group_by: q.groupBy,
  timezone: answer.location.timezone,
  currency: answer.currency,
  data: answer.data,
  totals: answer.totals,
});

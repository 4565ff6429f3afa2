import { dayOfDate } from "../../rules/days";
import { MAX_REPORT_DAYS } from "../../report-query";

/** The period when the link names none: the 30 days ending today. */
export const DEFAULT_DAYS = 30;

/** What a link is asked for (the route's schema checked the fields). */
export interface DashboardLinkBody {
  location_uuid: string;
  from?: string | undefined;
  to?: string | undefined;
}

export type PeriodProblem = { field: "from" | "to"; message: string };

/**
 * The period's day numbers, or what is wrong with it (the reports' rules: real
 * dates, to not before from, at most 366 days). A missing end is counted from
 * the other (30 days), both missing: the 30 days ending `today`.
 */
export function dashboardPeriod(
  body: { from?: string | undefined; to?: string | undefined },
  today: number,
): { fromDay: number; toDay: number } | PeriodProblem {
  const from = body.from === undefined ? undefined : dayOfDate(body.from);
  const to = body.to === undefined ? undefined : dayOfDate(body.to);
  if (from === null) return { field: "from", message: "Must be a date YYYY-MM-DD." };
  if (to === null) return { field: "to", message: "Must be a date YYYY-MM-DD." };
  const toDay = to ?? (from === undefined ? today : from + DEFAULT_DAYS - 1);
  const fromDay = from ?? toDay - DEFAULT_DAYS + 1;
  if (toDay < fromDay) return { field: "to", message: "Must be on or after from." };
  if (toDay - fromDay + 1 > MAX_REPORT_DAYS)
    return { field: "to", message: `A report may span at most ${MAX_REPORT_DAYS} days.` };
  return { fromDay, toDay };
}

/** Today's day number on a zone's wall clock. */
export function todayIn(timezone: string, at: number): number {
  const date = new Intl.DateTimeFormat("en-CA", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
  const day = dayOfDate(date);
  if (day === null) throw new Error(`no date of ${timezone}`);
  return day;
}

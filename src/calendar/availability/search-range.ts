import { shiftDate } from "../queries/availability";
import { utcDate } from "../../platform/clock";
import { invalid } from "../../platform/errors";

const DAY = 86_400_000;
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

export interface SearchRange {
  /** Local dates to search (padded by a day when instants were given: the zone is not known yet). */
  fromDate: string;
  toDate: string;
  /** Exact instant bounds when the client sent instants. */
  fromInstant: number | null;
  toInstant: number | null;
}

/** What a range can be wrong about (422): its end, before the start or too far from it. */
export type RangeSubject = { is: "end" };

/** Validates a range of dates or instants: forwards and at most `maxDays` long (docs/decisions.md, "Availability"). */
export function parseRange(start: string, end: string, maxDays: number): SearchRange {
  const startMs = Date.parse(isDate(start) ? `${start}T00:00:00Z` : start);
  const endMs = Date.parse(isDate(end) ? `${end}T00:00:00Z` : end);
  if (endMs < startMs) throw invalid({ is: "end" }, "Must not be before range_start.");
  const days = Math.floor((endMs - startMs) / DAY) + (isDate(end) ? 1 : 0);
  if (days > maxDays) throw invalid({ is: "end" }, `The range may span at most ${maxDays} days.`);
  return {
    fromDate: isDate(start) ? start : shiftDate(utcDate(startMs), -1),
    toDate: isDate(end) ? end : shiftDate(utcDate(endMs), 1),
    fromInstant: isDate(start) ? null : startMs,
    toInstant: isDate(end) ? null : endMs,
  };
}

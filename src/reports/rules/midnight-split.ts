import { offsetIn, type ZoneOffset } from "../../catalogue/rules/zone-offsets";
import { DAY_MS, dayStart } from "./days";

/** The days an entry spans past its first that the SQL counts (report_day_steps holds 0 … 1099). */
export const MAX_DAY_STEPS = 1100;

export interface DayPiece {
  day: number;
  ms: number;
}

/**
 * The day the rollups' SQL gives an instant: SQLite's integer division
 * truncates toward zero where `dayOf` floors; the two agree from 1970 on.
 */
export const sqlDayOf = (ms: number, offsets: readonly ZoneOffset[]): number =>
  Math.trunc((ms + offsetIn(offsets, ms)) / DAY_MS);

/**
 * An interval cut at the location's midnights, as the calendar triggers of
 * 0038 cut it: from the day of its start to the day of its last millisecond,
 * each day's piece is the overlap with [dayStart(day), dayStart(day + 1)).
 * An entry longer than 1100 days counts its first 1100 (the SQL's steps table).
 */
export function splitAtMidnights(
  startsAt: number,
  endsAt: number,
  offsets: readonly ZoneOffset[],
): DayPiece[] {
  if (endsAt <= startsAt) return [];
  const first = sqlDayOf(startsAt, offsets);
  const last = Math.min(sqlDayOf(endsAt - 1, offsets), first + MAX_DAY_STEPS - 1);
  const pieces: DayPiece[] = [];
  for (let day = first; day <= last; day++) {
    const from = Math.max(startsAt, dayStart(day, offsets));
    const to = Math.min(endsAt, dayStart(day + 1, offsets));
    pieces.push({ day, ms: Math.max(0, to - from) });
  }
  return pieces;
}

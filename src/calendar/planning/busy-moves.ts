import { calendarIdOf } from "../ids";
import type { EntryRow } from "../../db/schema";

/** Which of the booking's entries go and which come (an entry kept as it was is neither). */
export function busyMoves(before: EntryRow[], after: EntryRow[] | undefined) {
  if (!after) return { removed: [], added: [] };
  const same = (a: EntryRow, b: EntryRow) =>
    a.id === b.id &&
    calendarIdOf(a) === calendarIdOf(b) &&
    a.startsAt === b.startsAt &&
    a.endsAt === b.endsAt &&
    // A seat that changed session or seats is a new claim (the calendar counts seats).
    a.sessionKey === b.sessionKey &&
    a.seats === b.seats;
  return {
    removed: before.filter((e) => !after.some((a) => same(a, e))),
    added: after.filter((a) => !before.some((e) => same(a, e))),
  };
}

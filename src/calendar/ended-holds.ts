import type { EndedEntry } from "./queries/reservations";
import { heldEntriesByCalendar, heldItems } from "./held-items";
import { calendarIdOf } from "./ids";
import type { DisplacedEntry } from "./types";

// Publishable holds a staff write took over end as a whole: the write's batch ends the
// reservations, and their entries in the calendars the write did not claim are found here.

/** The reservations of taken-over entries, and the writes of those still in flight. */
export function displacedHolds(displaced: DisplacedEntry[]) {
  return {
    reservationIds: [...new Set(displaced.map((d) => d.source))],
    inFlightHolds: [...new Set(displaced.flatMap((d) => (d.holdId ? [d.holdId] : [])))],
  };
}

/** The entries the write's batch ended, per calendar, but the ones the write took itself. */
export const siblingsByCalendar = (ended: EndedEntry[], taken: ReadonlySet<string>) =>
  groupByCalendar(
    ended.filter((row) => !taken.has(row.id)).map((row) => [calendarIdOf(row), row.id]),
  );

/** The same from the stored reservations (when the batch's answer was lost). */
export const heldSiblings = (rows: { items: string }[], taken: ReadonlySet<string>) =>
  groupByCalendar(
    rows.flatMap((row) =>
      [...heldEntriesByCalendar(heldItems(row))].flatMap(([calendarId, ids]) =>
        ids.filter((id) => !taken.has(id)).map((id): [string, string] => [calendarId, id]),
      ),
    ),
  );

function groupByCalendar(pairs: [calendarId: string, entryId: string][]): Map<string, string[]> {
  const byCalendar = new Map<string, string[]>();
  for (const [calendarId, id] of pairs) {
    const ids = byCalendar.get(calendarId);
    if (ids) ids.push(id);
    else byCalendar.set(calendarId, [id]);
  }
  return byCalendar;
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { busyMoves } from "../../src/calendar/planning/busy-moves";
import { ownerColumns } from "../../src/calendar/ids";
import type { EntryRow } from "../../src/db/schema";

const entry = (id: string, calendarId: string, startsAt: number, endsAt: number): EntryRow => ({
  id,
  workspaceId: "w",
  ...ownerColumns(calendarId),
  locationId: "l",
  kind: "booking",
  sourceId: "b",
  startsAt,
  endsAt,
  expiresAt: null,
  yields: false,
  sessionKey: null,
  seats: 1,
  capacity: null,
});

const key = (e: EntryRow) => `${e.id} ${e.stafferId ?? `${e.resourceId}#${e.unit}`} ${e.startsAt}`;

const entries = fc
  .uniqueArray(
    fc.record({
      id: fc.constantFrom("e1", "e2", "e3", "e4", "e5"),
      calendar: fc.constantFrom("anna", "ben", "room#1", "room#2"),
      start: fc.integer({ min: 0, max: 3 }),
    }),
    { selector: (r) => `${r.id} ${r.calendar}`, maxLength: 6 },
  )
  .map((rs) => rs.map((r) => entry(r.id, r.calendar, r.start * 900_000, r.start * 900_000 + 1)));

describe("busyMoves: the busy time a change writes", () => {
  it("takes the entries before to exactly the entries after", () => {
    fc.assert(
      fc.property(entries, entries, (before, after) => {
        const { removed, added } = busyMoves(before, after);
        const gone = new Set(removed.map(key));
        const result = [...before.filter((e) => !gone.has(key(e))), ...added].map(key).sort();
        expect(result).toEqual(after.map(key).sort());
      }),
    );
  });

  it("leaves an entry kept as it was alone, and moves one whose calendar or time changed", () => {
    const kept = entry("e1", "anna", 0, 10);
    const moved = entry("e2", "anna", 0, 10);
    const { removed, added } = busyMoves(
      [kept, moved],
      [{ ...kept }, { ...moved, ...ownerColumns("ben") }],
    );
    expect(removed.map((e) => e.id)).toEqual(["e2"]);
    expect(added.map((e) => [e.id, e.stafferId])).toEqual([["e2", "ben"]]);
  });

  it("changes nothing when the change leaves the busy time alone", () => {
    expect(busyMoves([entry("e1", "anna", 0, 10)], undefined)).toEqual({ removed: [], added: [] });
  });
});

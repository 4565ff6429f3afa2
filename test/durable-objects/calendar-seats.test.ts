import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import type { CalendarEntry } from "../../src/calendar/types";

/**
 * The calendar object counts a group session's seats inside its synchronous
 * claim: entries with the same session key share their time while their
 * seats fit the capacity the claim carries; anything else overlapping them
 * is refused as before.
 */
const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 9);
const OWNER = { workspaceId: "ws-seats", calendarId: "no-rows" };
let n = 0;
const fresh = () => calendarFor(env, "ws-seats", `seats-${++n}`);
const claim = (
  cal: ReturnType<typeof calendarFor>,
  holdId: string,
  entries: CalendarEntry[],
  replaces: string[] = [],
) => cal.claim({ owner: OWNER, holdId, entries, replaces, checkConflicts: true });
const seat = (id: string, seats: number, key = "yoga@0/a", capacity = 5): CalendarEntry => ({
  id,
  kind: "booking",
  source: `b-${id}`,
  start: T0,
  end: T0 + HOUR,
  session: { key, seats, capacity },
});

describe("Calendar: seats of a session", () => {
  it("shares the time among seats of one session up to the capacity, then refuses as full", async () => {
    const cal = fresh();
    expect(await claim(cal, "h1", [seat("a", 3)])).toEqual({ ok: true });
    expect(await claim(cal, "h2", [seat("b", 2)])).toEqual({ ok: true });
    const full = await claim(cal, "h3", [seat("c", 1)]);
    expect(full).toMatchObject({ ok: false, reason: "overlap", full: true });
    // Another session (another key) or a plain booking over the time: a plain overlap.
    const other = await claim(cal, "h4", [seat("d", 1, "yoga@0/b")]);
    expect(other).toMatchObject({ ok: false, reason: "overlap" });
    expect(other).not.toHaveProperty("full");
    const plain = { ...seat("e", 1), session: undefined };
    expect(await claim(cal, "h5", [plain])).toMatchObject({ ok: false, reason: "overlap" });
  });

  it("refuses a claim that alone asks for more seats than the capacity", async () => {
    expect(await claim(fresh(), "h1", [seat("a", 6)])).toMatchObject({ ok: false, full: true });
  });

  it("frees a seat on release, and a move within the claim does not count its own old seats", async () => {
    const cal = fresh();
    await claim(cal, "h1", [seat("a", 4)]);
    await cal.confirm("h1");
    await claim(cal, "h2", [seat("b", 1)]);
    expect(await claim(cal, "h3", [seat("c", 1)])).toMatchObject({ full: true });
    await cal.release("h2");
    expect(await claim(cal, "h4", [seat("c", 1)])).toEqual({ ok: true });
    await cal.confirm("h4");
    // "a" (4 seats) becomes "a2" (4 seats) in the same session: it replaces itself, so it fits.
    expect(await claim(cal, "h5", [seat("a2", 4)], ["a"])).toEqual({ ok: true });
  });

  it("grants exactly C of N simultaneous one-seat claims", async () => {
    const cal = fresh();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claim(cal, `h${i}`, [seat(`s${i}`, 1)])),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
  });

  it("the audit compares seats: an entry with other seats in D1 is out of sync", async () => {
    const cal = fresh();
    await claim(cal, "h1", [seat("audited", 2)]);
    await cal.confirm("h1");
    const audit = await cal.audit("ws-seats", "nobody");
    // D1 has nothing for this calendar: the seat shows only in the calendar.
    expect(audit.in_sync).toBe(false);
    expect(audit.only_in_calendar).toHaveLength(1);
  });
});

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import type { CalendarEntry } from "../../src/calendar/types";
import { createLocation, createStaffer, createWorkspace } from "../helpers/factory";

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 9);
let n = 0;
const fresh = () => calendarFor(env, "ws-test", `staffer-${++n}`);
const booking = (id: string, startH: number, endH: number): CalendarEntry => ({
  id,
  kind: "booking",
  start: T0 + startH * HOUR,
  end: T0 + endH * HOUR,
});

describe("StafferCalendar", () => {
  it("refuses a claim overlapping held or confirmed time, and allows touching intervals", async () => {
    const cal = fresh();
    expect(
      await cal.claim({ holdId: "h1", entries: [booking("a", 0, 1)], checkConflicts: true }),
    ).toEqual({ ok: true });
    const clash = await cal.claim({
      holdId: "h2",
      entries: [booking("b", 0.5, 1.5)],
      checkConflicts: true,
    });
    expect(clash).toEqual({ ok: false, conflicts: [booking("a", 0, 1)] });
    expect(
      await cal.claim({ holdId: "h3", entries: [booking("c", 1, 2)], checkConflicts: true }),
    ).toEqual({ ok: true });
    await cal.confirm("h1");
    expect(
      await cal.claim({ holdId: "h4", entries: [booking("d", 0, 0.25)], checkConflicts: true }),
    ).toMatchObject({ ok: false });
  });

  it("lays blocked spots over anything, but bookings never over blocked time", async () => {
    const cal = fresh();
    await cal.claim({ holdId: "h1", entries: [booking("a", 0, 1)], checkConflicts: true });
    const block: CalendarEntry = { id: "blk", kind: "blocked", start: T0, end: T0 + 4 * HOUR };
    expect(await cal.claim({ holdId: "h2", entries: [block], checkConflicts: false })).toEqual({
      ok: true,
    });
    expect(
      await cal.claim({ holdId: "h3", entries: [booking("b", 2, 3)], checkConflicts: true }),
    ).toMatchObject({ ok: false });
  });

  it("releases held time and frees confirmed time", async () => {
    const cal = fresh();
    await cal.claim({ holdId: "h1", entries: [booking("a", 0, 1)], checkConflicts: true });
    await cal.release("h1");
    expect(await cal.entries()).toEqual([]);
    await cal.claim({ holdId: "h2", entries: [booking("b", 0, 1)], checkConflicts: true });
    await cal.confirm("h2");
    await cal.release("h2"); // confirmed time is not released by a late release
    expect(await cal.entries()).toEqual([booking("b", 0, 1)]);
    await cal.free(["b"]);
    expect(await cal.entries()).toEqual([]);
  });

  it("moves time: the old entries are ignored by the check and removed on confirm", async () => {
    const cal = fresh();
    await cal.claim({ holdId: "h1", entries: [booking("a", 0, 1)], checkConflicts: true });
    await cal.confirm("h1");
    const moved = await cal.claim({
      holdId: "h2",
      entries: [booking("a2", 0.5, 1.5)],
      replaces: ["a"],
      checkConflicts: true,
    });
    expect(moved).toEqual({ ok: true });
    await cal.confirm("h2");
    expect(await cal.entries()).toEqual([booking("a2", 0.5, 1.5)]);
  });

  it("grants exactly one of many simultaneous overlapping claims", async () => {
    const cal = fresh();
    const attempts = Array.from({ length: 50 }, (_, i) =>
      cal.claim({
        holdId: `h${i}`,
        entries: [booking(`e${i}`, (i % 5) * 0.25, (i % 5) * 0.25 + 1)],
        checkConflicts: true,
      }),
    );
    const results = await Promise.all(attempts);
    const granted = results.filter((r) => r.ok);
    expect(granted.length).toBeGreaterThanOrEqual(1);
    const entries = await cal.entries();
    // Whatever won, nothing held overlaps anything else held.
    for (const a of entries) {
      for (const b of entries) {
        if (a.id !== b.id) expect(a.end <= b.start || b.end <= a.start).toBe(true);
      }
    }
    expect(entries).toHaveLength(granted.length);
  });

  it("settles an expired hold by what D1 holds: confirmed when written, dropped when not", async () => {
    const ws = await createWorkspace();
    const location = await createLocation(ws);
    const staffer = await createStaffer(ws, [location.uuid]);
    const cal = calendarFor(env, ws.id, staffer.uuid);
    await cal.claim({ holdId: "written", entries: [booking("w", 0, 1)], checkConflicts: true });
    await cal.claim({ holdId: "lost", entries: [booking("l", 2, 3)], checkConflicts: true });
    // Only the first write reached D1 before its Worker died.
    await env.DB.prepare(
      "INSERT INTO calendar_entries (id, workspace_id, staffer_id, location_id, kind, source_id, starts_at, ends_at) VALUES ('w', ?, ?, ?, 'booking', 'b', 0, 1)",
    )
      .bind(ws.id, staffer.uuid, location.uuid)
      .run();
    // Age both holds past their expiry instead of waiting 30 s.
    await runInDurableObject(cal, (_instance, state) => {
      state.storage.sql.exec("UPDATE busy SET expires_at = 0 WHERE state = 'held'");
    });
    expect(await runDurableObjectAlarm(cal)).toBe(true);
    expect(await cal.entries()).toEqual([booking("w", 0, 1)]);
    // Confirmed now: a second claim over it is refused even after more alarms.
    expect(
      await cal.claim({ holdId: "x", entries: [booking("x", 0, 1)], checkConflicts: true }),
    ).toMatchObject({ ok: false });
  });
});

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { pruneFences } from "../../src/calendar/ledger";
import { createDb } from "../../src/db/client";
import { guard, holdNotFenced } from "../../src/db/guards";
import { holdFences } from "../../src/db/schema";
import { failpoints } from "../../src/platform/failpoints";
import type { CalendarEntry } from "../../src/calendar/types";
import { createLocation, createStaffer, createWorkspace } from "../helpers/factory";
import { everyShard, shardOf } from "../helpers/every-shard";

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 9);
/** Claims need an owner; these objects have no D1 rows of their own to load. */
const OWNER = { workspaceId: "ws-test", calendarId: "no-rows" };
let n = 0;
const claim = (
  cal: ReturnType<typeof calendarFor>,
  holdId: string,
  entries: CalendarEntry[],
  opts: { replaces?: string[]; checkConflicts?: boolean } = {},
) =>
  cal.claim({
    owner: OWNER,
    holdId,
    entries,
    replaces: opts.replaces ?? [],
    checkConflicts: opts.checkConflicts ?? true,
  });
const fresh = () => calendarFor(env, "ws-test", `staffer-${++n}`);
const booking = (id: string, startH: number, endH: number): CalendarEntry => ({
  id,
  kind: "booking",
  source: `b-${id}`,
  start: T0 + startH * HOUR,
  end: T0 + endH * HOUR,
});

describe("Calendar", () => {
  it("refuses a claim overlapping held or confirmed time, and allows touching intervals", async () => {
    const cal = fresh();
    expect(await claim(cal, "h1", [booking("a", 0, 1)])).toEqual({ ok: true });
    const clash = await claim(cal, "h2", [booking("b", 0.5, 1.5)]);
    expect(clash).toEqual({ ok: false, reason: "overlap", conflicts: [booking("a", 0, 1)] });
    expect(await claim(cal, "h3", [booking("c", 1, 2)])).toEqual({ ok: true });
    await cal.confirm("h1");
    expect(await claim(cal, "h4", [booking("d", 0, 0.25)])).toMatchObject({ ok: false });
  });

  it("lets a claim have time another write is freeing once that write confirms (just after its answer)", async () => {
    const cal = fresh();
    await claim(cal, "h0", [booking("a", 0, 1)]);
    await cal.confirm("h0");
    // A reschedule moves "a" to 2-3: until it confirms, 0-1 stays busy (locked by h1).
    expect(await claim(cal, "h1", [booking("b", 2, 3)], { replaces: ["a"] })).toEqual({ ok: true });
    // Its client, told the move is done, books the old time at once: the claim waits for the confirm.
    const rebook = claim(cal, "h2", [booking("c", 0, 1)]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await cal.confirm("h1");
    expect(await rebook).toEqual({ ok: true });
  });

  it("refuses after a short wait when the freeing write never confirms, and at once for plain busy time", async () => {
    const cal = fresh();
    await claim(cal, "h0", [booking("a", 0, 1)]);
    await cal.confirm("h0");
    expect(await claim(cal, "h1", [booking("b", 2, 3)], { replaces: ["a"] })).toEqual({ ok: true });
    expect(await claim(cal, "h2", [booking("c", 0, 1)])).toEqual({
      ok: false,
      reason: "overlap",
      conflicts: [booking("a", 0, 1)],
    });
    // The write failed for certain: its hold goes, and the old time is simply busy again.
    await cal.release("h1");
    expect(await claim(cal, "h3", [booking("d", 0.5, 1.5)])).toMatchObject({
      ok: false,
      reason: "overlap",
    });
  });

  it("lays blocked spots over anything, but bookings never over blocked time", async () => {
    const cal = fresh();
    await claim(cal, "h1", [booking("a", 0, 1)]);
    const block: CalendarEntry = {
      id: "blk",
      kind: "blocked",
      source: "blk",
      start: T0,
      end: T0 + 4 * HOUR,
    };
    expect(await claim(cal, "h2", [block], { checkConflicts: false })).toEqual({
      ok: true,
    });
    expect(await claim(cal, "h3", [booking("b", 2, 3)])).toMatchObject({ ok: false });
  });

  it("releases held time and frees confirmed time", async () => {
    const cal = fresh();
    await claim(cal, "h1", [booking("a", 0, 1)]);
    await cal.release("h1");
    expect(await cal.entries()).toEqual([]);
    await claim(cal, "h2", [booking("b", 0, 1)]);
    await cal.confirm("h2");
    await cal.release("h2"); // confirmed time is not released by a late release
    expect(await cal.entries()).toEqual([booking("b", 0, 1)]);
    // Freeing is a claim that replaces the entry, confirmed once D1 dropped it.
    await claim(cal, "h3", [], { replaces: ["b"] });
    expect(await cal.entries()).toEqual([booking("b", 0, 1)]);
    await cal.confirm("h3");
    expect(await cal.entries()).toEqual([]);
  });

  it("moves time: the old entries are ignored by the check and removed on confirm", async () => {
    const cal = fresh();
    await claim(cal, "h1", [booking("a", 0, 1)]);
    await cal.confirm("h1");
    const moved = await claim(cal, "h2", [booking("a2", 0.5, 1.5)], { replaces: ["a"] });
    expect(moved).toEqual({ ok: true });
    await cal.confirm("h2");
    expect(await cal.entries()).toEqual([booking("a2", 0.5, 1.5)]);
  });

  it("grants exactly one of many simultaneous claims that all overlap each other", async () => {
    const cal = fresh();
    // Every interval contains [0.4 h, 1 h), so any two of them overlap.
    const attempts = Array.from({ length: 50 }, (_, i) =>
      claim(cal, `h${i}`, [booking(`e${i}`, (i % 5) * 0.1, (i % 5) * 0.1 + 1)]),
    );
    const results = await Promise.all(attempts);
    const granted = results.filter((r) => r.ok);
    expect(granted).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "overlap")).toHaveLength(49);
    const entries = await cal.entries();
    // Whatever won, nothing held overlaps anything else held.
    for (const a of entries) {
      for (const b of entries) {
        if (a.id !== b.id) expect(a.end <= b.start || b.end <= a.start).toBe(true);
      }
    }
    expect(entries).toHaveLength(granted.length);
  });

  it("refuses to replace an entry that another live hold is already replacing", async () => {
    const cal = fresh();
    await claim(cal, "h1", [booking("a", 0, 1)]);
    await cal.confirm("h1");
    const moveA = await claim(cal, "reschedule", [booking("a2", 3, 4)], { replaces: ["a"] });
    expect(moveA).toEqual({ ok: true });
    // A staffer change of the same booking, at the same moment, would leave `a` replaced twice.
    const alsoMoveA = await claim(cal, "change-staffer", [], { replaces: ["a"] });
    expect(alsoMoveA).toEqual({ ok: false, reason: "replacing", ids: ["a"] });
    // Once the first write released (its D1 batch lost), the entry can be replaced again.
    await cal.release("reschedule");
    expect(await cal.entries()).toEqual([booking("a", 0, 1)]);
    expect(await claim(cal, "cancel", [], { replaces: ["a"] })).toEqual({ ok: true });
  });

  it("a fresh (or reset) object loads the staffer's busy time from D1 before its first claim", async () => {
    const ws = await createWorkspace();
    const location = await createLocation(ws);
    const staffer = await createStaffer(ws, [location.uuid]);
    await everyShard
      .prepare(
        "INSERT INTO calendar_entries (id, workspace_id, staffer_id, location_id, kind, source_id, starts_at, ends_at) VALUES ('booked', ?, ?, ?, 'booking', 'b-booked', ?, ?)",
      )
      .bind(ws.id, staffer.uuid, location.uuid, T0, T0 + HOUR)
      .run();
    const cal = calendarFor(env, ws.id, staffer.uuid);
    const owner = { workspaceId: ws.id, calendarId: staffer.uuid };
    expect(
      await cal.claim({
        owner,
        holdId: "h",
        entries: [booking("x", 0.5, 1.5)],
        checkConflicts: true,
      }),
    ).toMatchObject({ ok: false, reason: "overlap" });
    // Wiped storage (a namespace reset) is loaded again on the next claim.
    await runInDurableObject(cal, (_instance, state) => {
      state.storage.sql.exec("DELETE FROM entries");
      state.storage.sql.exec("DELETE FROM meta");
    });
    expect(
      await cal.claim({ owner, holdId: "h2", entries: [booking("y", 0, 1)], checkConflicts: true }),
    ).toMatchObject({ ok: false, reason: "overlap" });
  });

  describe("settling against D1", () => {
    async function setup() {
      const ws = await createWorkspace();
      const location = await createLocation(ws);
      const staffer = await createStaffer(ws, [location.uuid]);
      const cal = calendarFor(env, ws.id, staffer.uuid);
      const writeD1 = (e: CalendarEntry) =>
        everyShard
          .prepare(
            "INSERT INTO calendar_entries (id, workspace_id, staffer_id, location_id, kind, source_id, starts_at, ends_at) VALUES (?, ?, ?, ?, 'booking', ?, ?, ?)",
          )
          .bind(e.id, ws.id, staffer.uuid, location.uuid, e.source, e.start, e.end)
          .run();
      const deleteD1 = (id: string) =>
        everyShard.prepare("DELETE FROM calendar_entries WHERE id = ?").bind(id).run();
      const age = () =>
        runInDurableObject(cal, (_instance, state) => {
          state.storage.sql.exec("UPDATE holds SET expires_at = 0");
        });
      const fenced = async (holdId: string) =>
        (await everyShard
          .prepare("SELECT 1 FROM hold_fences WHERE hold_id = ?")
          .bind(holdId)
          .first()) !== null;
      /** Confirmed time that D1 records too, as a committed booking leaves it. */
      const booked = async (e: CalendarEntry) => {
        await claim(cal, `book-${e.id}`, [e]);
        await writeD1(e);
        await cal.confirm(`book-${e.id}`);
      };
      return { ws, staffer, cal, writeD1, deleteD1, age, fenced, booked };
    }

    it("an expired hold is confirmed when written, dropped when not, and fenced either way", async () => {
      const { cal, writeD1, age, fenced } = await setup();
      await claim(cal, "written", [booking("w", 0, 1)]);
      await claim(cal, "lost", [booking("l", 2, 3)]);
      // Only the first write reached D1 before its Worker died.
      await writeD1(booking("w", 0, 1));
      await age();
      expect(await runDurableObjectAlarm(cal)).toBe(true);
      expect(await cal.entries()).toEqual([booking("w", 0, 1)]);
      // Both holds are fenced: the lost write can never commit later.
      expect(await fenced("written")).toBe(true);
      expect(await fenced("lost")).toBe(true);
      // Confirmed now: a second claim over it is refused.
      expect(await claim(cal, "x", [booking("x", 0, 1)])).toMatchObject({
        ok: false,
        reason: "overlap",
      });
    });

    it("an expired hold that freed time drops it only once D1 no longer has it (a lost confirm of a cancel)", async () => {
      const { cal, deleteD1, age, booked } = await setup();
      await booked(booking("a", 0, 1));
      await booked(booking("b", 4, 5));
      // Cancel of `a` committed in D1, its confirm never arrived; a cancel of `b` did not commit.
      await claim(cal, "cancel-a", [], { replaces: ["a"] });
      await claim(cal, "cancel-b", [], { replaces: ["b"] });
      await deleteD1("a");
      await age();
      await runDurableObjectAlarm(cal);
      expect(await cal.entries()).toEqual([booking("b", 4, 5)]);
    });

    it("settle answers whether an ambiguous write committed, and applies it", async () => {
      const { cal, writeD1, deleteD1, booked } = await setup();
      await booked(booking("a", 0, 1));
      // A reschedule a -> a2 whose batch committed but whose answer was lost.
      await claim(cal, "move", [booking("a2", 2, 3)], { replaces: ["a"] });
      await deleteD1("a");
      await writeD1(booking("a2", 2, 3));
      expect(await cal.settle("move", { entries: ["a2"], replaces: ["a"] })).toEqual({
        committed: true,
      });
      expect(await cal.entries()).toEqual([booking("a2", 2, 3)]);
      // A second move that did not commit leaves the time where D1 has it.
      await claim(cal, "move2", [booking("a3", 5, 6)], { replaces: ["a2"] });
      expect(await cal.settle("move2", { entries: ["a3"], replaces: ["a2"] })).toEqual({
        committed: false,
      });
      expect(await cal.entries()).toEqual([booking("a2", 2, 3)]);
    });

    it("settle trusts the replaced entries: a committed move whose new entry a later write replaced still counts", async () => {
      const { cal, writeD1, deleteD1, booked } = await setup();
      await booked(booking("a", 0, 1));
      await claim(cal, "move", [booking("a2", 2, 3)], { replaces: ["a"] });
      // The move committed; a second change then replaced a2 in D1 before the first settled.
      await deleteD1("a");
      await writeD1(booking("a3", 4, 5));
      expect(await cal.settle("move", { entries: ["a2"], replaces: ["a"] })).toEqual({
        committed: true,
      });
    });

    it("an alarm that cannot reach D1 keeps the holds and tries again", async () => {
      const { cal, writeD1, age } = await setup();
      await claim(cal, "r", [booking("r", 0, 1)]);
      await writeD1(booking("r", 0, 1));
      await age();
      failpoints.arm("calendar.settle.d1");
      try {
        await runDurableObjectAlarm(cal);
      } finally {
        failpoints.disarmAll();
      }
      // Still held (busy), and a retry is scheduled.
      expect(await cal.entries()).toEqual([booking("r", 0, 1)]);
      expect(
        await runInDurableObject(cal, (_instance, state) =>
          state.storage.sql.exec("SELECT COUNT(*) AS n FROM holds").one(),
        ),
      ).toEqual({ n: 1 });
      expect(
        await runInDurableObject(cal, (_instance, state) => state.storage.getAlarm()),
      ).not.toBeNull();
      // The re-armed alarm, run now instead of in 10 s, settles against D1 as usual.
      expect(await runDurableObjectAlarm(cal)).toBe(true);
      expect(
        await runInDurableObject(cal, (_instance, state) =>
          state.storage.sql.exec("SELECT COUNT(*) AS n FROM holds").one(),
        ),
      ).toEqual({ n: 0 });
      expect(await cal.entries()).toEqual([booking("r", 0, 1)]);
    });

    it("a fenced hold's write cannot commit afterwards", async () => {
      const { ws, cal, age, fenced } = await setup();
      await claim(cal, "slow", [booking("s", 0, 1)]);
      await age();
      await runDurableObjectAlarm(cal);
      expect(await fenced("slow")).toBe(true);
      // The write's own batch, with the production guard at its head: it rolls back whole.
      // It runs where the app's does, on the workspace's shard (the one transaction there).
      const db = createDb((await shardOf(ws.id)).db);
      const scope = { db, workspaceId: ws.id };
      const fence = (holdId: string) =>
        db.insert(holdFences).values({ holdId, createdAt: 0, workspaceId: ws.id });
      const late = await db
        .batch([guard(scope, holdNotFenced("slow")), fence("written-by-late-batch")])
        .then(
          () => "committed",
          (e: Error) => `${e.message} ${String(e.cause ?? "")}`,
        );
      expect(await fenced("written-by-late-batch")).toBe(false);
      // The same batch for a hold nobody fenced commits.
      await db.batch([guard(scope, holdNotFenced("live")), fence("written-by-live-batch")]);
      expect(await fenced("written-by-live-batch")).toBe(true);
      expect(late).toContain("batch_guard_failed");
    });

    it("the cron prunes fences a day old and keeps young ones", async () => {
      const now = Date.now();
      // The cron prunes each shard apart: one shard, a workspace open on it, and a fence
      // from before shards (no workspace).
      const ws = await createWorkspace();
      const shard = (await shardOf(ws.id)).db;
      await shard
        .prepare(
          "INSERT INTO hold_fences (hold_id, created_at, workspace_id) VALUES ('old', ?1, ?3), ('young', ?2, ?3), ('old-unowned', ?1, NULL)",
        )
        .bind(now - 25 * 3_600_000, now - 60_000, ws.id)
        .run();
      await pruneFences(shard, now);
      const left = await shard
        .prepare("SELECT hold_id FROM hold_fences WHERE hold_id IN ('old', 'young', 'old-unowned')")
        .all<{ hold_id: string }>();
      expect(left.results.map((r) => r.hold_id)).toEqual(["young"]);
    });

    it("audit compares with D1 and rebuild makes the object equal to D1", async () => {
      const { ws, staffer, cal, writeD1 } = await setup();
      await claim(cal, "h1", [booking("a", 0, 1)]);
      await cal.confirm("h1");
      await writeD1(booking("d", 2, 3));
      const audit = await cal.audit(ws.id, staffer.uuid);
      expect(audit.in_sync).toBe(false);
      expect(audit.only_in_calendar).toEqual([
        { booking_uuid: "b-a", starts_at: "2030-01-07T09:00:00Z", ends_at: "2030-01-07T10:00:00Z" },
      ]);
      expect(audit.only_in_d1).toEqual([
        { booking_uuid: "b-d", starts_at: "2030-01-07T11:00:00Z", ends_at: "2030-01-07T12:00:00Z" },
      ]);
      expect(await cal.rebuild(ws.id, staffer.uuid)).toEqual({
        in_sync: true,
        only_in_calendar: [],
        only_in_d1: [],
      });
      expect(await cal.entries()).toEqual([booking("d", 2, 3)]);
    });
  });
});

describe("Calendar: a reservation's held entries", () => {
  const held = (id: string, startH: number, endH: number, expires: number): CalendarEntry => ({
    id,
    kind: "held",
    source: `r-${id}`,
    start: T0 + startH * HOUR,
    end: T0 + endH * HOUR,
    expires,
  });
  const age = (cal: ReturnType<typeof calendarFor>, id: string) =>
    runInDurableObject(cal, (_instance, state) => {
      state.storage.sql.exec("UPDATE entries SET expires_ms = ? WHERE id = ?", Date.now() - 1, id);
    });

  it("refuse bookings, other holds and blocked spots until they expire, then count for nothing", async () => {
    const cal = fresh();
    expect(await claim(cal, "h1", [held("r", 0, 1, Date.now() + HOUR)])).toEqual({ ok: true });
    await cal.confirm("h1");
    expect(await claim(cal, "h2", [booking("a", 0.5, 1.5)])).toMatchObject({ ok: false });
    expect(await claim(cal, "h3", [held("r2", 0.5, 1.5, Date.now() + HOUR)])).toMatchObject({
      ok: false,
    });
    const block: CalendarEntry = {
      id: "blk",
      kind: "blocked",
      source: "blk",
      start: T0,
      end: T0 + 4 * HOUR,
    };
    expect(await claim(cal, "h4", [block], { checkConflicts: false })).toMatchObject({
      ok: false,
      reason: "overlap",
    });
    await age(cal, "r");
    // Expired: ignored by every read at once, with no alarm having run.
    expect(await cal.entries()).toEqual([]);
    expect(await claim(cal, "h5", [booking("b", 0.5, 1.5)])).toEqual({ ok: true });
  });

  it("stay busy for everyone else while a booking replacing them is in flight, even past their expiry", async () => {
    const cal = fresh();
    await claim(cal, "h1", [held("r", 0, 1, Date.now() + HOUR)]);
    await cal.confirm("h1");
    // The holder's booking replaces the held entry with its own.
    expect(await claim(cal, "use", [booking("a", 0, 1)], { replaces: ["r"] })).toEqual({
      ok: true,
    });
    await age(cal, "r");
    // Its own new entry is busy, and so is the expired held one it is converting.
    expect(await claim(cal, "third", [booking("x", 0, 1)])).toMatchObject({ ok: false });
    expect(await claim(cal, "again", [booking("y", 0, 1)], { replaces: ["r"] })).toEqual({
      ok: false,
      reason: "replacing",
      ids: ["r"],
    });
    await cal.confirm("use");
    expect(await cal.entries()).toEqual([booking("a", 0, 1)]);
  });

  it("the alarm deletes expired ones; the audit compares live entries only", async () => {
    const ws = await createWorkspace();
    const location = await createLocation(ws);
    const staffer = await createStaffer(ws, [location.uuid]);
    const cal = calendarFor(env, ws.id, staffer.uuid);
    const owner = { workspaceId: ws.id, calendarId: staffer.uuid };
    const id = crypto.randomUUID();
    const entry = held(id, 0, 1, Date.now() + HOUR);
    await cal.claim({ owner, holdId: "h1", entries: [entry], replaces: [], checkConflicts: true });
    await everyShard
      .prepare(
        "INSERT INTO calendar_entries (id, workspace_id, staffer_id, location_id, kind, source_id, starts_at, ends_at, expires_at) VALUES (?, ?, ?, ?, 'held', ?, ?, ?, ?)",
      )
      .bind(
        id,
        ws.id,
        staffer.uuid,
        location.uuid,
        entry.source,
        entry.start,
        entry.end,
        entry.expires,
      )
      .run();
    await cal.confirm("h1");
    expect((await cal.audit(ws.id, staffer.uuid)).in_sync).toBe(true);
    await age(cal, id);
    await everyShard
      .prepare("UPDATE calendar_entries SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect(await cal.audit(ws.id, staffer.uuid)).toEqual({
      in_sync: true,
      only_in_calendar: [],
      only_in_d1: [],
    });
    await runInDurableObject(cal, async (_instance, state) => {
      await state.storage.setAlarm(Date.now());
    });
    await runDurableObjectAlarm(cal);
    const rows = await runInDurableObject(cal, (_instance, state) =>
      state.storage.sql.exec("SELECT id FROM entries").toArray(),
    );
    expect(rows).toEqual([]);
  });
});

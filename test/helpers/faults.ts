import { afterEach, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import type { Received } from "./http";
import { everyShard } from "./every-shard";

/**
 * The fault suite: a failure injected between every two steps of a write
 * that claims calendar time, run once per fault for every write a file
 * declares. The faults a calendar write can meet:
 *
 * - `unheard`: the D1 batch commits but the Worker never hears of it;
 * - `confirm lost`: the calendar never gets the confirm;
 * - `answer and settlement lost`: both of the above, so the request fails;
 * - `certain failure`: the batch fails inside D1, nothing is written;
 * - `lost`: the batch never reached D1, and the Worker cannot know that;
 * - `lost, settlement lost`: that, and the settlement after it is lost too.
 *
 * Whatever the fault, no time is ever given twice, what committed is
 * written and what failed is not, and once the alarms ran every calendar
 * equals D1. A file declares its writes and what "in sync" and "busy" mean
 * for its calendars; the faults and the checks between them live here once.
 */

export type Fault =
  | "unheard"
  | "confirm lost"
  | "answer and settlement lost"
  | "certain failure"
  | "lost"
  | "lost, settlement lost";

/** The faults a write meets unless it names its own. */
export const FAULTS: readonly Fault[] = [
  "unheard",
  "confirm lost",
  "answer and settlement lost",
  "certain failure",
];

/** One write under test: what it acts on, the request, and the time it takes or frees. */
export interface FaultyWrite<Ctx, Slot> {
  name: string;
  /** Makes what the write acts on (before any fault is armed); returns the write's context. */
  arrange: () => Promise<Ctx>;
  act: (ctx: Ctx) => Promise<Received>;
  /** The status of the write when the Worker hears of its commit. */
  status: number;
  /** Did the write reach D1? */
  written: (ctx: Ctx, res: Received) => Promise<boolean>;
  /** Time the write makes busy (a probe there is refused once it committed), or null. */
  busy: Slot | null;
  /** Time the write frees (a probe there is accepted once it settled). */
  frees?: Slot;
  /**
   * The busy time was already held by what the write acts on (a reservation),
   * so after a certain failure it stays refused rather than becoming free.
   */
  heldBefore?: boolean;
  /** The table whose insert the write's batch makes: a trigger there fails it for certain. */
  failingTable: string;
  /** Further checks once the write committed and the Worker heard of it, or the alarm settled it. */
  afterCommit?: (ctx: Ctx, res: Received) => Promise<void>;
  /** Further checks once a write that did not commit settled: what it acted on is as it was. */
  unchanged?: (ctx: Ctx) => Promise<void>;
  /** The faults to run (all four unless given). */
  faults?: readonly Fault[];
}

export interface FaultSuite<Ctx, Slot> {
  writes: FaultyWrite<Ctx, Slot>[];
  /** Another client's try for a time: its status (409 while the time is busy). */
  probe: (ctx: Ctx, slot: Slot) => Promise<number>;
  /** Every calendar the writes touch equals D1. */
  inSync: () => Promise<void>;
  /** Runs the calendars' alarms with every hold expired (what time does to a lost confirm). */
  expireHolds: () => Promise<void>;
  /** How many confirms and settlements to lose (one per calendar a write claims, or more). */
  losses: number;
  /** Further checks once the alarms settled a write. */
  afterSettled?: (ctx: Ctx) => Promise<void>;
  /** The D1 batch the faults hit (a calendar write's, unless given). */
  batch?: (sql: string) => boolean;
}

/** Only the batch of a calendar write carries the fence guard. */
export const calendarBatch = (sql: string) => sql.includes("hold_fences");

/** Runs `run` while every insert into `table` fails inside D1 (a batch that certainly failed). */
export async function withFailingInserts<T>(table: string, run: () => Promise<T>): Promise<T> {
  // A name of its own: a trigger left by one test never meets another's.
  const trigger = `fault_${table}_${crypto.randomUUID().replaceAll("-", "")}`;
  await everyShard.exec(
    `CREATE TRIGGER ${trigger} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected'); END`,
  );
  try {
    return await run();
  } finally {
    await everyShard.exec(`DROP TRIGGER ${trigger}`);
  }
}

/** The `n` of a `select count(*) as n …`. */
export const countOf = async (sql: string, ...binds: unknown[]) =>
  (
    await everyShard
      .prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

/** A fresh weekday (YYYY-MM-DD) per call, from `monday` on, so no two tests share a day. */
export function weekdays(monday: string) {
  const start = Date.parse(`${monday}T00:00:00Z`);
  let day = 0;
  return () => {
    const week = Math.floor(day / 5);
    const date = new Date(start + (week * 7 + (day % 5)) * 86_400_000);
    day += 1;
    return date.toISOString().slice(0, 10);
  };
}

/** Registers one describe per write and one test per fault. */
export function faultSuite<Ctx, Slot>(suite: FaultSuite<Ctx, Slot>) {
  afterEach(() => failpoints.disarmAll());
  const { probe, inSync, losses } = suite;
  const batch = suite.batch ?? calendarBatch;
  type Write = FaultyWrite<Ctx, Slot>;

  const expectBusy = async (ctx: Ctx, write: Write, frees: number) => {
    if (write.busy !== null) expect(await probe(ctx, write.busy)).toBe(409);
    if (write.frees !== undefined) expect(await probe(ctx, write.frees)).toBe(frees);
  };

  /** Once the alarms ran: the write committed, whole. */
  const settled = async (ctx: Ctx, write: Write, res: Received) => {
    await suite.expireHolds();
    await inSync();
    await expectBusy(ctx, write, 201);
    await write.afterCommit?.(ctx, res);
    await suite.afterSettled?.(ctx);
  };

  /** The write did not commit: calendars equal D1, and its time is as it was. */
  const asBefore = async (ctx: Ctx, write: Write) => {
    await inSync();
    await write.unchanged?.(ctx);
    if (write.busy !== null)
      expect(await probe(ctx, write.busy)).toBe(write.heldBefore ? 409 : 201);
    // Time the write would have freed is still taken.
    if (write.frees !== undefined) expect(await probe(ctx, write.frees)).toBe(409);
  };

  const tests: Record<Fault, [string, (write: Write) => Promise<void>]> = {
    unheard: [
      "commits, but the Worker never hears of it: settles at once and answers success",
      async (write) => {
        const ctx = await write.arrange();
        failpoints.arm("d1.batch.committed", batch);
        const res = await write.act(ctx);
        expect(res.status, JSON.stringify(res.body)).toBe(write.status);
        expect(await write.written(ctx, res)).toBe(true);
        // Settled against D1 before answering: no hold left, nothing to wait for.
        await inSync();
        await expectBusy(ctx, write, 201);
        await write.afterCommit?.(ctx, res);
      },
    ],
    "confirm lost": [
      "loses the confirm: the time stays busy until the alarm settles it",
      async (write) => {
        const ctx = await write.arrange();
        failpoints.arm("calendar.confirm", () => true, losses);
        const res = await write.act(ctx);
        expect(res.status, JSON.stringify(res.body)).toBe(write.status);
        expect(await write.written(ctx, res)).toBe(true);
        // Held, not confirmed: still busy for everyone, the freed time too.
        await expectBusy(ctx, write, 409);
        await settled(ctx, write, res);
      },
    ],
    "answer and settlement lost": [
      "commits, and both the answer and the settlement are lost: 500, no double booking, the alarm settles",
      async (write) => {
        const ctx = await write.arrange();
        failpoints.arm("d1.batch.committed", batch);
        failpoints.arm("calendar.settle", () => true, losses);
        const res = await write.act(ctx);
        expect(res.status).toBe(500);
        expect(await write.written(ctx, res)).toBe(true);
        await expectBusy(ctx, write, 409);
        await settled(ctx, write, res);
      },
    ],
    "certain failure": [
      "fails for certain inside the batch: nothing written, holds released at once",
      async (write) => {
        const ctx = await write.arrange();
        const settlesBefore = failpoints.hits("calendar.settle");
        const res = await withFailingInserts(write.failingTable, () => write.act(ctx));
        expect(res.status).toBe(500);
        expect(await write.written(ctx, res)).toBe(false);
        // Released, not settled: a certain failure needs no fence and no look at D1.
        expect(failpoints.hits("calendar.settle")).toBe(settlesBefore);
        await asBefore(ctx, write);
      },
    ],
    lost: [
      "lost before it reached D1 (ambiguous): 500, nothing written, settled against D1 at once",
      async (write) => {
        const ctx = await write.arrange();
        failpoints.arm("d1.batch.lost", batch);
        const res = await write.act(ctx);
        expect(res.status, JSON.stringify(res.body)).toBe(500);
        expect(await write.written(ctx, res)).toBe(false);
        await asBefore(ctx, write);
      },
    ],
    "lost, settlement lost": [
      "lost before D1, and the settlement lost too: 500, the time stays locked until the alarm settles it",
      async (write) => {
        const ctx = await write.arrange();
        failpoints.arm("d1.batch.lost", batch);
        failpoints.arm("calendar.settle", () => true, losses);
        const res = await write.act(ctx);
        expect(res.status, JSON.stringify(res.body)).toBe(500);
        expect(await write.written(ctx, res)).toBe(false);
        // Until the alarm settles, the taken time stays locked: no one else gets it.
        await expectBusy(ctx, write, 409);
        await suite.expireHolds();
        await asBefore(ctx, write);
      },
    ],
  };

  for (const write of suite.writes) {
    describe(write.name, () => {
      for (const fault of write.faults ?? FAULTS) {
        const [title, run] = tests[fault];
        it(title, () => run(write));
      }
    });
  }
}

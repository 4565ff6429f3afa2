import { runBatch, type Database } from "../db/client";
import { isDefiniteFailure } from "../db/constraints";
import { committedWithoutAnswer } from "../db/effects";
import { guard, holdNotFenced } from "../db/guards";
import { endDisplaced, reservationItems } from "./queries/reservations";
import type { Env } from "../platform/env";
import { RecordChangedError } from "../platform/errors";
import { SlotTakenError } from "./slot-taken";
import { failpoint, probe, rendezvous } from "../platform/failpoints";
import { displacedHolds, heldSiblings, siblingsByCalendar } from "./ended-holds";
import { D1_MAX_BATCH_STATEMENTS, TooManyStatementsError } from "../db/limits";
import type { Statement } from "../db/statement";
import { budgetOf, type CalendarBudget, MAX_CALENDAR_CALLS, requestTooLarge } from "./budget";
import type { CalendarEntry, ClaimResult, DisplacedEntry } from "./types";

/** The calendar object of a staffer or of one resource unit (see `./ids`). */
export function calendarFor(env: Env, workspaceId: string, calendarId: string) {
  return env.CALENDARS.get(env.CALENDARS.idFromName(`${workspaceId}/${calendarId}`));
}

export interface CalendarClaim {
  /** A staffer's id or a resource unit's calendar id. */
  calendarId: string;
  entries: CalendarEntry[];
  /** Entries of this calendar the write supersedes (moved, reassigned or cancelled time). */
  replaces?: string[];
  checkConflicts: boolean;
  /** A staff write: publishable holds in its way give way (see `staffClaims`). */
  displaces?: boolean;
}

/**
 * The claims of a staff write (a secret key's booking or change, a blocked
 * spot, a resource block): a publishable key's hold over the time does not
 * refuse them; the write takes the time and ends that whole reservation.
 */
export const staffClaims = (claims: CalendarClaim[], staff = true): CalendarClaim[] =>
  staff ? claims.map((c) => ({ ...c, displaces: true })) : claims;

// The HTTP kit builds a Defer from a request and sits below the calendar, so the type lives in
// platform; the calendar's callers keep importing it from here.
import { type Defer, runAlongside } from "../platform/defer";

export { type Defer, runAlongside };

type Stub = ReturnType<typeof calendarFor>;
type Claimed = { stub: Stub; result: ClaimResult } | { stub: Stub; error: unknown };

function claimOn(env: Env, workspaceId: string, holdId: string, claim: CalendarClaim) {
  const stub = calendarFor(env, workspaceId, claim.calendarId);
  return stub
    .claim({
      owner: { workspaceId, calendarId: claim.calendarId },
      holdId,
      entries: claim.entries,
      replaces: claim.replaces ?? [],
      checkConflicts: claim.checkConflicts,
      ...(claim.displaces ? { displaces: true } : {}),
    })
    .then(
      (result): Claimed => ({ stub, result }),
      (error: unknown): Claimed => ({ stub, error }),
    );
}

/**
 * The problem of a set of claims, as the error to throw; null when every
 * claim is granted. A record changing under the write outranks a taken slot,
 * whichever calendar sorts first: time claimed by another write of the same
 * record (a concurrent change of this booking) is not someone else's, so
 * the write must replan on fresh state rather than answer 409.
 */
function refusalOf(
  claims: CalendarClaim[],
  claimed: Claimed[],
  write: CalendarClaim[] = claims,
): unknown {
  const taken: { calendarId: string; conflicts: CalendarEntry[]; full: boolean }[] = [];
  let changed = false;
  // Only a change of an existing record (it replaces time) can meet its own record's time.
  const changing = write.some((c) => (c.replaces?.length ?? 0) > 0);
  const own = new Set(changing ? write.flatMap((c) => c.entries.map((e) => e.source)) : []);
  for (const [i, c] of claimed.entries()) {
    if ("error" in c) return c.error;
    if (c.result.ok) continue;
    probe(`calendar.refused.${c.result.reason}`);
    if (c.result.reason === "replacing" || c.result.conflicts.some((e) => own.has(e.source))) {
      changed = true;
    } else {
      taken.push({
        calendarId: claims[i]?.calendarId ?? "",
        conflicts: c.result.conflicts,
        full: c.result.full ?? false,
      });
    }
  }
  if (changed) return new RecordChangedError();
  const [first, ...others] = taken;
  return first
    ? new SlotTakenError(
        first.calendarId,
        first.conflicts,
        others,
        taken.every((t) => t.full),
      )
    : null;
}

/** What one plan of a write claims and writes, and what the write answers once committed. */
export interface PlannedWrite<T> {
  claims: CalendarClaim[];
  /** The D1 batch, built once the time is claimed (so its guards read the clock then). */
  build: () => Statement[];
  value: T;
  /**
   * The answer from what the batch itself answered: the results of `build`'s
   * statements, in their order (a write that appends a SELECT reads what its
   * own statements decided in SQL, with no round trip of its own); null when
   * the batch committed but its answer was lost. Absent: `value`.
   */
  answer?: (results: readonly unknown[] | null) => T | Promise<T>;
}

/** Statements `endDisplaced` may add to a staff write's batch (fence, delete, release). */
const ENDING_STATEMENTS = 3;

const byCalendarId = (a: CalendarClaim, b: CalendarClaim) =>
  a.calendarId < b.calendarId ? -1 : a.calendarId > b.calendarId ? 1 : 0;

const sameClaim = (a: CalendarClaim, b: CalendarClaim) =>
  JSON.stringify([a.entries, a.replaces ?? [], a.checkConflicts, a.displaces ?? false]) ===
  JSON.stringify([b.entries, b.replaces ?? [], b.checkConflicts, b.displaces ?? false]);

/**
 * Refused up front, before any calendar is touched: a write whose claims and
 * confirms alone pass the request's calendar calls, or whose batch passes D1's
 * statements per batch.
 */
function assertFits(planned: PlannedWrite<unknown>) {
  const calendars = planned.claims.length;
  if (2 * calendars > MAX_CALENDAR_CALLS) {
    throw requestTooLarge(
      `The request needs ${calendars} calendars (staffers and resource units), ${2 * calendars} calendar calls; at most ${MAX_CALENDAR_CALLS} are made per request. Split it into smaller requests.`,
    );
  }
  // The batch as it will be sent: the fence guard first.
  // A staff write may also end publishable holds it takes over (`endDisplaced`).
  const ending = planned.claims.some((c) => c.displaces) ? ENDING_STATEMENTS : 0;
  const statements = 1 + planned.build().length + ending;
  if (statements > D1_MAX_BATCH_STATEMENTS) throw new TooManyStatementsError(statements);
}

/**
 * The claims of one write under one hold id, across the plans it tries: the
 * calendars that granted a claim keep it while the write plans again around a
 * refusal, so replanning claims only what changed. Every claim draws on the
 * request's budget, which no retry may pass.
 */
class Claims {
  readonly holdId = crypto.randomUUID();
  /** Per calendar: the granted claim, and the publishable holds it took over. */
  readonly granted = new Map<
    string,
    { claim: CalendarClaim; stub: Stub; displaced: DisplacedEntry[] }
  >();
  /** The refusal a retry was meant to get past: the answer once the budget allows no retry. */
  private last: unknown = null;

  constructor(
    private readonly env: Env,
    private readonly workspaceId: string,
    private readonly budget: CalendarBudget,
  ) {}

  /** Gives back what the listed calendars granted (the write certainly did not reach D1). */
  async release(calendarIds: string[]): Promise<void> {
    const stubs = calendarIds.flatMap((id) => {
      const g = this.granted.get(id);
      this.granted.delete(id);
      return g ? [g.stub] : [];
    });
    this.budget.ended(stubs.length);
    await Promise.allSettled(stubs.map((stub) => stub.release(this.holdId)));
  }

  releaseAll = () => this.release([...this.granted.keys()]);

  /** Stops here when the budget does not allow claiming these calendars. */
  private afford(claims: CalendarClaim[]) {
    const ids = claims.map((c) => c.calendarId);
    if (this.budget.fits(ids, this.granted.size)) return;
    throw this.last ?? new RecordChangedError();
  }

  private async claimOne(claim: CalendarClaim): Promise<Claimed> {
    this.budget.claimed(claim.calendarId);
    // Lets a race test hold one write's claim on one calendar while its others go ahead
    // (inert otherwise): "adding" claims add time, "freeing" ones only give it back.
    await rendezvous(
      `calendar.claim.${claim.calendarId}.${claim.entries.length > 0 ? "adding" : "freeing"}`,
    );
    return claimOn(this.env, this.workspaceId, this.holdId, claim);
  }

  /**
   * Claims every calendar of `write` not granted yet, all at once (one hop
   * however many); the refusal, or null when all of `write` is granted.
   */
  async together(write: CalendarClaim[]): Promise<unknown> {
    const wanted = write.filter((c) => !this.granted.has(c.calendarId));
    this.afford(wanted);
    const claimed = await Promise.all(wanted.map((c) => this.claimOne(c)));
    claimed.forEach((c, i) => {
      const claim = wanted[i];
      if (claim && "result" in c && c.result.ok)
        this.granted.set(claim.calendarId, {
          claim,
          stub: c.stub,
          displaced: c.result.displaced ?? [],
        });
    });
    const refusal = refusalOf(wanted, claimed, write);
    if (refusal !== null) this.last = refusal;
    return refusal;
  }

  /**
   * Takes turns with other writes over the same calendars, in sorted calendar
   * order: what this write was granted before the first calendar it lacks
   * stays granted, the rest is given back and claimed one at a time, so of two
   * writes that each won a part of the other's calendars, the one granted the
   * first wins them all. Claims never wait for each other, so this cannot
   * deadlock. Throws the refusal when a calendar refuses again.
   */
  async inTurn(write: CalendarClaim[]): Promise<void> {
    const first = write.findIndex((c) => !this.granted.has(c.calendarId));
    if (first < 0) return;
    const rest = write.slice(first);
    await this.release(rest.map((c) => c.calendarId));
    this.afford(rest);
    probe("calendar.claims.one_by_one");
    await rendezvous("calendar.claims.one_by_one");
    for (const claim of rest) {
      const one = await this.claimOne(claim);
      const problem = refusalOf([claim], [one], write);
      if (problem !== null) throw problem;
      this.granted.set(claim.calendarId, {
        claim,
        stub: one.stub,
        displaced: "result" in one && one.result.ok ? (one.result.displaced ?? []) : [],
      });
    }
  }
}

/**
 * Claims the time in every calendar of a write, planning again where the
 * write can go elsewhere:
 * 1. all calendars at once (one hop however many);
 * 2. on a refusal the write can plan around (`replan` learns the taken time:
 *    another staffer or unit), the calendars that granted their part keep
 *    it, and only the changed claims are made, again all at once;
 * 3. when it cannot, and some calendars granted their part, it takes turns
 *    once in sorted calendar order (`Claims.inTurn`).
 * Every claim draws on the request's budget: no calendar is claimed more than
 * twice, and when the budget allows no further try the write answers the
 * refusal (409) instead. Returns the plan every calendar of which granted its claim.
 */
async function claimPlanned<T>(
  claims: Claims,
  plan: () => PlannedWrite<T> | Promise<PlannedWrite<T>>,
  replan: (refusal: unknown) => boolean,
  first: PlannedWrite<T>,
): Promise<PlannedWrite<T>> {
  let current = first;
  for (;;) {
    const write = [...current.claims].sort(byCalendarId);
    // Granted for an earlier plan and no longer wanted as it was: given back first.
    const wanted = new Map(write.map((c) => [c.calendarId, c]));
    await claims.release(
      [...claims.granted].flatMap(([id, g]) => {
        const want = wanted.get(id);
        return want && sameClaim(want, g.claim) ? [] : [id];
      }),
    );
    const refusal = await claims.together(write);
    if (refusal === null) return current;
    // A record changing under this write (the caller reads it afresh), or a calendar that
    // failed, is answered as it is.
    if (!(refusal instanceof SlotTakenError)) throw refusal;
    if (replan(refusal)) {
      const next = await Promise.resolve()
        .then(plan)
        .catch(() => null);
      if (next) {
        current = next;
        continue;
      }
    }
    // Nothing to take turns over: a plain taken slot is answered as it is.
    if (write.length === 1 || claims.granted.size === 0) throw refusal;
    await claims.inTurn(write);
    return current;
  }
}

/**
 * Writes busy time: claims it in every affected calendar, runs the D1 batch
 * that `build()` returns (built once the time is claimed, so its guards read the
 * clock then), and confirms after the response (`defer`): a confirm that
 * never arrives is settled by the calendar's alarm, so the answer does not
 * wait for it. The batch starts with a guard that its hold
 * is not fenced (`holdNotFenced`), put here for every caller: once a hold is
 * settled, its write can never commit.
 *
 * On failure the holds are released only when the batch certainly did not
 * commit (it raised an SQL error inside its transaction). An ambiguous failure
 * asks each calendar to settle the hold against D1 instead, and answers as if
 * the write succeeded when D1 shows that it did; if even that fails, the
 * alarm settles the holds later. No path frees time D1 may hold.
 */
export async function commitWithClaims(
  env: Env,
  db: Database,
  workspaceId: string,
  claims: CalendarClaim[],
  build: () => Statement[],
  defer: Defer = runAlongside,
): Promise<void> {
  await commitPlanned(env, db, workspaceId, { claims, build, value: undefined }, defer);
}

/**
 * `commitWithClaims` for a write that can go elsewhere when a calendar refuses
 * (auto-allocated staffers, the units of a resource): `replan` learns what the
 * refusal showed taken and says whether to plan again, `plan` plans again.
 * Answers the committed plan's value. A plan too large for one request is
 * refused before any calendar is touched (422 `request_too_large`).
 */
export async function commitPlanned<T>(
  env: Env,
  db: Database,
  workspaceId: string,
  first: PlannedWrite<T>,
  defer: Defer = runAlongside,
  replanning?: {
    plan: () => PlannedWrite<T> | Promise<PlannedWrite<T>>;
    replan: (refusal: unknown) => boolean;
  },
): Promise<T> {
  assertFits(first);
  const budget = budgetOf(env);
  const claims = new Claims(env, workspaceId, budget);
  let planned: PlannedWrite<T>;
  try {
    planned = await claimPlanned(
      claims,
      replanning?.plan ?? (() => first),
      replanning?.replan ?? (() => false),
      first,
    );
  } catch (error) {
    // Nothing was written yet: what any calendar granted can go.
    await claims.releaseAll();
    throw error;
  }
  const { holdId } = claims;
  const granted = [...claims.granted.values()];
  const stubs = granted.map((g) => g.stub);
  const displaced = granted.flatMap((g) => g.displaced);
  const ordered = [...planned.claims].sort(byCalendarId);
  const scope = { db, workspaceId };
  const ending =
    displaced.length > 0 ? endDisplaced(scope, displacedHolds(displaced), Date.now()) : null;

  // Lets a race test hold writes between their claims and their batch (inert otherwise).
  probe("calendar.claimed");
  await rendezvous("calendar.claimed");
  let results: unknown[];
  let statements: Statement[] = [];
  let built: number;
  try {
    const own = planned.build();
    built = own.length;
    statements = [guard(scope, holdNotFenced(holdId)), ...own, ...(ending?.statements ?? [])];
    results = await runBatch(db, statements);
  } catch (error) {
    if (isDefiniteFailure(error)) {
      await claims.releaseAll();
      throw error;
    }
    budget.ended(ordered.length);
    if (!(await settledAsCommitted(env, workspaceId, holdId, ordered))) throw error;
    committedWithoutAnswer(db, statements);
    // Committed: the batch's answer naming the ended holds' other entries was lost, so the
    // stored reservations name them (one read, off the answer's path).
    if (displaced.length > 0) {
      const { reservationIds } = displacedHolds(displaced);
      const taken = new Set(displaced.map((d) => d.id));
      defer(async () => {
        const rows = await reservationItems(scope, reservationIds);
        const elsewhere = heldSiblings(rows, taken);
        budget.ended(elsewhere.size);
        await dropElsewhere(env, workspaceId, elsewhere);
      });
    }
    return planned.answer ? await planned.answer(null) : planned.value;
  }
  // The ended reservations' entries in calendars this write did not take them from.
  const elsewhere = siblingsByCalendar(
    ending?.ended(results) ?? [],
    new Set(displaced.map((d) => d.id)),
  );
  // Counted now: the confirms and drops run after the answer, which reports them (Server-Timing).
  budget.ended(stubs.length + elsewhere.size);
  budget.pending += stubs.length;
  defer(() =>
    Promise.allSettled([
      ...stubs.map(async (stub) => {
        budget.pending -= 1;
        failpoint("calendar.confirm", holdId);
        await stub.confirm(holdId);
      }),
      dropElsewhere(env, workspaceId, elsewhere),
    ]),
  );
  // The fence guard came first: the write's own results follow it.
  return planned.answer ? await planned.answer(results.slice(1, 1 + built)) : planned.value;
}

/** Drops ended publishable holds' entries, one call per calendar (only yielding held entries go). */
function dropElsewhere(env: Env, workspaceId: string, byCalendar: Map<string, string[]>) {
  return Promise.allSettled(
    [...byCalendar].map(([calendarId, ids]) => calendarFor(env, workspaceId, calendarId).drop(ids)),
  );
}

/** After an ambiguous failure: did the batch commit? Settles every calendar of the write. */
async function settledAsCommitted(
  env: Env,
  workspaceId: string,
  holdId: string,
  claims: CalendarClaim[],
): Promise<boolean> {
  try {
    const settled = await Promise.all(
      claims.map((claim) => {
        failpoint("calendar.settle", holdId);
        return calendarFor(env, workspaceId, claim.calendarId).settle(holdId, {
          entries: claim.entries.map((e) => e.id),
          replaces: claim.replaces ?? [],
        });
      }),
    );
    // All calendars read the same D1 after the fence; any one answers for the batch.
    return settled.some((s) => s.committed);
  } catch {
    // Nothing is known: the alarm settles the holds once their lease ends.
    return false;
  }
}

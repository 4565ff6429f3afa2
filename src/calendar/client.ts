import type { BatchItem } from "drizzle-orm/batch";
import { runBatch, type Database } from "../db/client";
import { isDefiniteFailure } from "../db/constraints";
import { guard, holdNotFenced } from "../db/guards";
import { endDisplaced, reservationItems } from "../db/queries/reservations";
import type { Env } from "../env";
import { RecordChangedError, SlotTakenError } from "../lib/errors";
import { failpoint, probe, rendezvous } from "../lib/failpoints";
import { heldEntriesByCalendar, type HeldItem } from "../reservations/view";
import { calendarIdOf } from "./ids";
import type { CalendarEntry, ClaimResult, DisplacedEntry } from "./types";

/** The calendar object of a staffer or of one resource unit (see `./ids`). */
export function calendarFor(env: Env, workspaceId: string, calendarId: string) {
  return env.STAFFER_CALENDAR.get(env.STAFFER_CALENDAR.idFromName(`${workspaceId}/${calendarId}`));
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

/**
 * Runs a task once the answer is ready, without making the answer wait for
 * it (a request's `waitUntil`).
 */
export type Defer = (task: () => Promise<unknown>) => void;

/** Without a request to answer first (tests, background jobs): start it now, wait for nothing. */
export const runAlongside: Defer = (task) => {
  task().catch(() => undefined);
};

type Stub = ReturnType<typeof calendarFor>;
type Claimed = { stub: Stub; result: ClaimResult } | { stub: Stub; error: unknown };

/** What the granted claims of a write hold: the stubs to confirm, the holds they took over. */
interface Held {
  stubs: Stub[];
  displaced: DisplacedEntry[];
}

const displacedBy = (claimed: Claimed[]): DisplacedEntry[] =>
  claimed.flatMap((c) => ("result" in c && c.result.ok ? (c.result.displaced ?? []) : []));

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
 * claim holds. A record changing under the write outranks a taken slot,
 * whichever calendar sorts first: time held by another write of the same
 * record (a concurrent change of this booking) is not someone else's, so
 * the write must replan on fresh state rather than answer 409.
 */
function refusalOf(
  claims: CalendarClaim[],
  claimed: Claimed[],
  write: CalendarClaim[] = claims,
): unknown {
  let taken: SlotTakenError | null = null;
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
      taken ??= new SlotTakenError(claims[i]?.calendarId ?? "", c.result.conflicts);
    }
  }
  if (changed) return new RecordChangedError();
  return taken;
}

/**
 * Holds the time in every calendar of a write: all at once (one hop however
 * many staffers), and, when that fails while some calendars granted their
 * part, once more one calendar at a time in sorted calendar order. Claims
 * never wait for each other, so neither way can deadlock; the sorted pass
 * keeps two writes that each won a part of the other's calendars from both
 * giving up: the one that wins the first calendar wins them all.
 */
async function claimAll(
  env: Env,
  workspaceId: string,
  holdId: string,
  ordered: CalendarClaim[],
): Promise<Held> {
  const release = (stubs: Stub[]) => Promise.allSettled(stubs.map((stub) => stub.release(holdId)));
  const granted = (claimed: Claimed[]) =>
    claimed.filter((c) => "result" in c && c.result.ok).map((c) => c.stub);

  const together = await Promise.all(ordered.map((c) => claimOn(env, workspaceId, holdId, c)));
  const refusal = refusalOf(ordered, together);
  if (refusal === null) {
    return { stubs: together.map((c) => c.stub), displaced: displacedBy(together) };
  }
  // Nothing was written yet: what any calendar holds can go.
  const partly = granted(together);
  await release(partly);
  // Taking turns settles ties between different writes; a record changing under this one
  // (or a plain taken slot with nothing granted) is answered as it is.
  if (ordered.length === 1 || partly.length === 0 || refusal instanceof RecordChangedError)
    throw refusal;
  probe("calendar.claims.one_by_one");
  await rendezvous("calendar.claims.one_by_one");

  const held: Claimed[] = [];
  for (const claim of ordered) {
    const one = await claimOn(env, workspaceId, holdId, claim);
    const problem = refusalOf([claim], [one], ordered);
    if (problem !== null) {
      await release(held.map((c) => c.stub));
      throw problem;
    }
    held.push(one);
  }
  return { stubs: held.map((c) => c.stub), displaced: displacedBy(held) };
}

/**
 * Writes busy time: claims it in every affected calendar, runs the D1 batch
 * that `build()` returns (built once the time is held, so its guards read the
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
  build: () => BatchItem<"sqlite">[],
  defer: Defer = runAlongside,
): Promise<void> {
  const holdId = crypto.randomUUID();
  const ordered = [...claims].sort((a, b) =>
    a.calendarId < b.calendarId ? -1 : a.calendarId > b.calendarId ? 1 : 0,
  );
  const { stubs: held, displaced } = await claimAll(env, workspaceId, holdId, ordered);
  const scope = { db, workspaceId };
  const ending =
    displaced.length > 0 ? endDisplaced(scope, displacedHolds(displaced), Date.now()) : null;

  // Lets a race test hold writes between their claims and their batch (inert otherwise).
  probe("calendar.claimed");
  await rendezvous("calendar.claimed");
  let results: unknown[];
  try {
    results = await runBatch(db, [
      guard(scope, holdNotFenced(holdId)),
      ...build(),
      ...(ending?.statements ?? []),
    ]);
  } catch (error) {
    if (isDefiniteFailure(error)) {
      await Promise.allSettled(held.map((stub) => stub.release(holdId)));
      throw error;
    }
    if (!(await settledAsCommitted(env, workspaceId, holdId, ordered))) throw error;
    // Committed: the batch's answer naming the ended holds' other entries was lost, so the
    // stored reservations name them (one read, off the answer's path).
    if (displaced.length > 0) {
      const { reservationIds } = displacedHolds(displaced);
      const taken = new Set(displaced.map((d) => d.id));
      defer(async () => {
        const rows = await reservationItems(scope, reservationIds);
        await dropElsewhere(env, workspaceId, heldSiblings(rows, taken));
      });
    }
    return;
  }
  // The ended reservations' entries in calendars this write did not take them from.
  const elsewhere = siblingsByCalendar(
    ending?.ended(results) ?? [],
    new Set(displaced.map((d) => d.id)),
  );
  defer(() =>
    Promise.allSettled([
      ...held.map(async (stub) => {
        failpoint("calendar.confirm", holdId);
        await stub.confirm(holdId);
      }),
      dropElsewhere(env, workspaceId, elsewhere),
    ]),
  );
}

/** Drops ended publishable holds' entries, one call per calendar (only yielding held entries go). */
function dropElsewhere(env: Env, workspaceId: string, byCalendar: Map<string, string[]>) {
  return Promise.allSettled(
    [...byCalendar].map(([calendarId, ids]) => calendarFor(env, workspaceId, calendarId).drop(ids)),
  );
}

/** The entries of stored reservations, per calendar, but the ones this write took itself. */
function heldSiblings(
  rows: { items: string }[],
  taken: ReadonlySet<string>,
): Map<string, string[]> {
  const byCalendar = new Map<string, string[]>();
  for (const row of rows) {
    for (const [calendarId, ids] of heldEntriesByCalendar(JSON.parse(row.items) as HeldItem[])) {
      const rest = ids.filter((id) => !taken.has(id));
      if (rest.length > 0)
        byCalendar.set(calendarId, [...(byCalendar.get(calendarId) ?? []), ...rest]);
    }
  }
  return byCalendar;
}

/** The reservations of taken-over entries, and the writes of those still in flight. */
function displacedHolds(displaced: DisplacedEntry[]) {
  return {
    reservationIds: [...new Set(displaced.map((d) => d.source))],
    inFlightHolds: [...new Set(displaced.flatMap((d) => (d.holdId ? [d.holdId] : [])))],
  };
}

function siblingsByCalendar(
  ended: ReturnType<ReturnType<typeof endDisplaced>["ended"]>,
  taken: ReadonlySet<string>,
): Map<string, string[]> {
  const byCalendar = new Map<string, string[]>();
  for (const row of ended) {
    if (taken.has(row.id)) continue;
    const calendarId = calendarIdOf(row);
    byCalendar.set(calendarId, [...(byCalendar.get(calendarId) ?? []), row.id]);
  }
  return byCalendar;
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

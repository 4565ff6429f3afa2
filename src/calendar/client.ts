import type { BatchItem } from "drizzle-orm/batch";
import { runBatch, type Database } from "../db/client";
import { isDefiniteFailure } from "../db/constraints";
import type { Env } from "../env";
import { RecordChangedError, SlotTakenError } from "../lib/errors";
import { failpoint, probe } from "../lib/failpoints";
import type { CalendarEntry } from "./types";

export function calendarFor(env: Env, workspaceId: string, stafferId: string) {
  return env.STAFFER_CALENDAR.get(env.STAFFER_CALENDAR.idFromName(`${workspaceId}/${stafferId}`));
}

export interface StafferClaim {
  stafferId: string;
  entries: CalendarEntry[];
  /** Entries of this calendar the write supersedes (moved, reassigned or cancelled time). */
  replaces?: string[];
  checkConflicts: boolean;
}

/**
 * Writes busy time: claims it in every affected calendar (in sorted staffer
 * order, so two multi-staffer writes meet in the same order), runs the D1
 * batch that `build(holdId)` returns, then confirms. The batch must start with
 * a guard that its hold is not fenced (`holdNotFenced`).
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
  claims: StafferClaim[],
  build: (holdId: string) => BatchItem<"sqlite">[],
): Promise<void> {
  const holdId = crypto.randomUUID();
  const ordered = [...claims].sort((a, b) =>
    a.stafferId < b.stafferId ? -1 : a.stafferId > b.stafferId ? 1 : 0,
  );
  const held: ReturnType<typeof calendarFor>[] = [];
  const release = () => Promise.allSettled(held.map((stub) => stub.release(holdId)));
  for (const claim of ordered) {
    const stub = calendarFor(env, workspaceId, claim.stafferId);
    const result = await stub
      .claim({
        owner: { workspaceId, stafferId: claim.stafferId },
        holdId,
        entries: claim.entries,
        replaces: claim.replaces ?? [],
        checkConflicts: claim.checkConflicts,
      })
      .catch(async (error: unknown) => {
        // Nothing was written yet: what the earlier calendars hold can go.
        await release();
        throw error;
      });
    if (!result.ok) {
      probe(`calendar.refused.${result.reason}`);
      await release();
      if (result.reason === "overlap") throw new SlotTakenError(claim.stafferId, result.conflicts);
      throw new RecordChangedError();
    }
    held.push(stub);
  }

  try {
    await runBatch(db, build(holdId));
  } catch (error) {
    if (isDefiniteFailure(error)) {
      await release();
      throw error;
    }
    if (!(await settledAsCommitted(env, workspaceId, holdId, ordered))) throw error;
    return;
  }
  await Promise.allSettled(
    held.map(async (stub) => {
      failpoint("calendar.confirm", holdId);
      await stub.confirm(holdId);
    }),
  );
}

/** After an ambiguous failure: did the batch commit? Settles every calendar of the write. */
async function settledAsCommitted(
  env: Env,
  workspaceId: string,
  holdId: string,
  claims: StafferClaim[],
): Promise<boolean> {
  try {
    const settled = await Promise.all(
      claims.map((claim) => {
        failpoint("calendar.settle", holdId);
        return calendarFor(env, workspaceId, claim.stafferId).settle(holdId, {
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

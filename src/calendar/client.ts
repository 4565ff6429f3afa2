import type { Env } from "../env";
import { SlotTakenError } from "../lib/errors";
import type { CalendarEntry } from "./types";

export function calendarFor(env: Env, workspaceId: string, stafferId: string) {
  return env.STAFFER_CALENDAR.get(env.STAFFER_CALENDAR.idFromName(`${workspaceId}/${stafferId}`));
}

export interface StafferClaim {
  stafferId: string;
  entries: CalendarEntry[];
  replaces?: string[];
  checkConflicts: boolean;
}

/**
 * Claims busy time in every affected calendar (in sorted staffer order, so two
 * multi-staffer writes cannot wait on each other in opposite orders), runs the
 * D1 write, then confirms. Any failure releases the holds; a crash leaves them
 * to expire, and each calendar then confirms or drops them by what D1 holds.
 */
export async function withClaims<T>(
  env: Env,
  workspaceId: string,
  claims: StafferClaim[],
  write: () => Promise<T>,
): Promise<T> {
  const holdId = crypto.randomUUID();
  const ordered = [...claims].sort((a, b) =>
    a.stafferId < b.stafferId ? -1 : a.stafferId > b.stafferId ? 1 : 0,
  );
  const held: ReturnType<typeof calendarFor>[] = [];
  const releaseAll = () => Promise.allSettled(held.map((stub) => stub.release(holdId)));
  try {
    for (const claim of ordered) {
      const stub = calendarFor(env, workspaceId, claim.stafferId);
      const result = await stub.claim({
        holdId,
        entries: claim.entries,
        replaces: claim.replaces ?? [],
        checkConflicts: claim.checkConflicts,
      });
      if (!result.ok) throw new SlotTakenError(claim.stafferId, result.conflicts);
      held.push(stub);
    }
    const written = await write();
    await Promise.allSettled(held.map((stub) => stub.confirm(holdId)));
    return written;
  } catch (error) {
    await releaseAll();
    throw error;
  }
}

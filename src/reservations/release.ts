import { and, eq, isNull } from "drizzle-orm";
import { commitWithClaims, type Defer } from "../calendar/client";
import { isGuardFailure } from "../db/constraints";
import { guard, holdNotFenced } from "../db/guards";
import { findReservation } from "../db/queries/reservations";
import { calendarEntries, reservations } from "../db/schema";
import type { Scope } from "../db/scope";
import { whereIn } from "../db/scope";
import type { Env } from "../env";
import { notFound, RecordChangedError } from "../lib/errors";
import { heldItems, isLive } from "./view";
import { stillLive } from "./redeem";

/**
 * Gives a reservation's time back before it expires: the calendars drop its
 * entries and D1 its rows, in one claim and one batch. A reservation already
 * used, released or expired is not found (404), as GET says.
 */
export async function releaseReservation(
  deps: { scope: Scope; env: Env; defer?: Defer },
  id: string,
) {
  const { scope, env } = deps;
  const row = await findReservation(scope, id);
  const now = Date.now();
  if (!row || !isLive(row, now)) throw notFound("Reservation");
  const byStaffer = new Map<string, string[]>();
  for (const s of heldItems(row).flatMap((i) => i.services)) {
    byStaffer.set(s.staffer_uuid, [...(byStaffer.get(s.staffer_uuid) ?? []), s.entry_id]);
  }
  try {
    await commitWithClaims(
      env,
      scope.db,
      scope.workspaceId,
      [...byStaffer].map(([stafferId, ids]) => ({
        stafferId,
        entries: [],
        replaces: ids,
        checkConflicts: false,
      })),
      (holdId) => [
        guard(
          scope,
          and(holdNotFenced(holdId), stillLive(id, Date.now())) ?? holdNotFenced(holdId),
        ),
        scope.db
          .delete(calendarEntries)
          .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, id))),
        scope.db
          .update(reservations)
          .set({ releasedAt: Date.now() })
          .where(
            whereIn(scope, reservations, eq(reservations.id, id), isNull(reservations.releasedAt)),
          ),
      ],
      deps.defer,
    );
  } catch (error) {
    // A booking used it, or it expired, while this request was on its way.
    if (isGuardFailure(error) || error instanceof RecordChangedError) throw notFound("Reservation");
    throw error;
  }
}

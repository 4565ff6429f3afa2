import { commitWithClaims, type Defer } from "../client";
import { isGuardFailure } from "../../db/constraints";
import { guard } from "../../db/guards";
import {
  endReservation,
  findReservation,
  isLive,
  reservationStillLive,
} from "../queries/reservations";
import type { Scope } from "../../db/scope";
import type { Env } from "../../platform/env";
import { notFound, RecordChangedError } from "../../platform/errors";
import { heldEntriesByCalendar, heldItems } from "../held-items";

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
  const byCalendar = heldEntriesByCalendar(heldItems(row));
  try {
    await commitWithClaims(
      env,
      scope.db,
      scope.workspaceId,
      [...byCalendar].map(([calendarId, ids]) => ({
        calendarId,
        entries: [],
        replaces: ids,
        checkConflicts: false,
      })),
      () => [
        guard(scope, reservationStillLive(id, Date.now())),
        ...endReservation(scope, id, Date.now()),
      ],
      deps.defer,
    );
  } catch (error) {
    // A booking used it, or it expired, while this request was on its way.
    if (isGuardFailure(error) || error instanceof RecordChangedError) throw notFound("Reservation");
    throw error;
  }
}

import { commitWithClaims, type Defer } from "../client";
import { guard } from "../../db/guards";
import { isGuardFailure } from "../../db/constraints";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { Env } from "../../platform/env";
import { ApiError, RecordChangedError } from "../../platform/errors";
import { calendarIdOf } from "../ids";
import type { CalendarClaim } from "../client";
import type { CalendarEntry } from "../types";
import { extendHold, type HeldEntryRow } from "../queries/hold-extension";
import { reservationStillLive, type ReservationRow } from "../queries/reservations";
import { HeldItemsSchema, heldItems } from "../held-items";

/** 409 `reservation_expired`: the reservation was used, released, expired or taken by staff. */
export const holdLost = () =>
  new ApiError(
    "reservation_expired",
    "The reservation has expired or was already used or deleted; search and reserve again.",
  );

const entryOfRow = (row: HeldEntryRow, id: string, expires: number): CalendarEntry => ({
  id,
  kind: "held",
  source: row.sourceId,
  start: row.startsAt,
  end: row.endsAt,
  expires,
  ...(row.yields ? { yields: true } : {}),
  ...(row.sessionKey
    ? { session: { key: row.sessionKey, seats: row.seats, capacity: row.capacity ?? row.seats } }
    : {}),
});

/**
 * Holds a live reservation's time until `expiresAt` (a hosted checkout takes
 * longer than a form): each calendar swaps the reservation's entries for the
 * same time expiring later, and D1 does the same in one batch with
 * `statements` (the caller's own rows). A reservation that ended meanwhile
 * (used, released, expired, or taken over by staff) is 409 `reservation_expired`.
 */
export async function extendReservation(
  deps: { scope: Scope; env: Env; defer?: Defer },
  reservation: ReservationRow,
  rows: HeldEntryRow[],
  expiresAt: number,
  statements: () => Statement[],
): Promise<void> {
  const { scope } = deps;
  const renamed = new Map(rows.map((r) => [r.id, crypto.randomUUID()]));
  const items = heldItems(reservation).map((item) => ({
    ...item,
    services: item.services.map((s) => ({
      ...s,
      entry_id: renamed.get(s.entry_id) ?? s.entry_id,
      ...(s.units
        ? {
            units: s.units.map((u) => ({ ...u, entry_id: renamed.get(u.entry_id) ?? u.entry_id })),
          }
        : {}),
    })),
  }));
  const byCalendar = new Map<string, CalendarClaim>();
  const newRows = rows.map((row) => {
    const id = renamed.get(row.id) ?? row.id;
    const calendarId = calendarIdOf(row);
    const claim = byCalendar.get(calendarId) ?? {
      calendarId,
      entries: [],
      replaces: [],
      checkConflicts: true,
    };
    claim.entries.push(entryOfRow(row, id, expiresAt));
    claim.replaces?.push(row.id);
    byCalendar.set(calendarId, claim);
    return { ...row, id, expiresAt };
  });
  try {
    await commitWithClaims(
      deps.env,
      scope.db,
      scope.workspaceId,
      [...byCalendar.values()],
      () => [
        guard(scope, reservationStillLive(reservation.id, Date.now())),
        ...extendHold(scope, reservation.id, {
          items: JSON.stringify(HeldItemsSchema.parse(items)),
          expiresAt,
          rows: newRows,
        }),
        ...statements(),
      ],
      deps.defer,
    );
  } catch (error) {
    // Ended while this request was on its way, or staff took its time.
    if (isGuardFailure(error) || error instanceof RecordChangedError) throw holdLost();
    if (error instanceof ApiError && error.code === "slot_unavailable") throw holdLost();
    throw error;
  }
}

import { inArray } from "drizzle-orm";
import type { Context } from "hono";
import { calendarFor, withClaims } from "../../calendar/client";
import { engineInputs } from "../../calendar/engine-input";
import { loadAvailability, shiftDate } from "../../db/queries/availability";
import { bookingServices, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { bookingOperation } from "../context";
import { assertPlacementsFit, bookedEntry, claimEntry, entryOf, utcDate } from "../moves";
import { MINUTE } from "../../domain/duration";

/** Hands one service (or all) to another staffer of the branch; times and prices stay. */
export async function changeBookingStaffer(
  c: Context<AppEnv>,
  bookingId: string,
  input: { staffer_uuid: string; service_uuid?: string | undefined },
) {
  const op = await bookingOperation(c, bookingId, "change_staffer");
  const { loaded, scope } = op;
  const targets = loaded.services.filter(
    (s) =>
      (input.service_uuid === undefined || s.serviceId === input.service_uuid) &&
      s.stafferId !== input.staffer_uuid,
  );
  if (
    input.service_uuid !== undefined &&
    !loaded.services.some((s) => s.serviceId === input.service_uuid)
  ) {
    throw fieldError("service_uuid", "The booking has no such service.");
  }
  if (targets.length === 0) return op.render(loaded);

  const first = Math.min(...targets.map((s) => s.reservedOn));
  const last = Math.max(...targets.map((s) => s.reservedUntil + s.buffer * MINUTE));
  const availability = await loadAvailability(scope, {
    locationId: loaded.booking.locationId,
    serviceIds: [...new Set(targets.map((s) => s.serviceId))],
    stafferIds: [input.staffer_uuid],
    fromDate: shiftDate(utcDate(first), -1),
    toDate: shiftDate(utcDate(last), 1),
  });
  const inputs = engineInputs(availability);
  if (!inputs) throw new Error("the booking's location vanished");
  for (const s of targets) {
    if (!inputs.performersOf(s.serviceId).some((p) => p.id === input.staffer_uuid)) {
      throw fieldError(
        "staffer_uuid",
        "The staffer must belong to the booking's location, be active and be able to perform the service.",
      );
    }
  }
  const now = Date.now();
  assertPlacementsFit(
    inputs,
    targets.map((s) => ({
      stafferId: input.staffer_uuid,
      start: s.reservedOn,
      durationMin: s.duration,
      bufferMin: s.buffer,
    })),
    now,
    "staffer_uuid",
  );

  const oldEntries = targets.map((s) => entryOf(loaded.entries, s)).filter((e) => e !== undefined);
  const at = { workspaceId: scope.workspaceId, locationId: loaded.booking.locationId, bookingId };
  const newEntries = targets.map((s) => bookedEntry(at, { ...s, stafferId: input.staffer_uuid }));
  const moved = new Set(targets.map((s) => s.id));
  const reassign = <S extends { id: string; stafferId: string }>(s: S) =>
    moved.has(s.id) ? { ...s, stafferId: input.staffer_uuid } : s;
  const claim = {
    stafferId: input.staffer_uuid,
    entries: newEntries.map(claimEntry),
    checkConflicts: true,
  };
  const rendered = await withClaims(op.env, scope.workspaceId, [claim], () =>
    op.commit(
      {
        ...loaded,
        booking: { ...loaded.booking, updatedAt: now },
        services: loaded.services.map(reassign),
        orderServices: loaded.orderServices.map(reassign),
      },
      "booking-staffer-changed",
      [
        scope.db
          .update(bookingServices)
          .set({ stafferId: input.staffer_uuid })
          .where(whereIn(scope, bookingServices, inArray(bookingServices.id, [...moved]))),
        ...(oldEntries.length > 0
          ? [
              scope.db.delete(calendarEntries).where(
                whereIn(
                  scope,
                  calendarEntries,
                  inArray(
                    calendarEntries.id,
                    oldEntries.map((e) => e.id),
                  ),
                ),
              ),
            ]
          : []),
        scope.db.insert(calendarEntries).values(newEntries),
      ],
    ),
  );
  // The old staffers' time is freed only once D1 no longer books them.
  await Promise.allSettled(
    [...new Set(oldEntries.map((e) => e.stafferId))].map((stafferId) =>
      calendarFor(op.env, scope.workspaceId, stafferId).free(
        oldEntries.filter((e) => e.stafferId === stafferId).map((e) => e.id),
      ),
    ),
  );
  return rendered;
}

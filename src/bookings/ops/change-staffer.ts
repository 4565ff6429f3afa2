import type { Context } from "hono";
import { engineInputs } from "../../calendar/engine-input";
import { idIn, insertRows } from "../../db/bounded";
import { loadAvailability, shiftDate } from "../../db/queries/availability";
import { bookingServices, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { MINUTE } from "../../domain/duration";
import type { AppEnv } from "../../env";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";
import { assertPlacementsFit, bookedEntry, entryOf, movingClaims, utcDate } from "../moves";

/** Hands one service (or all) to another staffer of the branch; times and prices stay. */
export function changeBookingStaffer(
  c: Context<AppEnv>,
  bookingId: string,
  input: { staffer_uuid: string; service_uuid?: string | undefined },
) {
  return changeBooking(c, bookingId, "change_staffer", async (loaded, { scope, now }) => {
    if (
      input.service_uuid !== undefined &&
      !loaded.services.some((s) => s.serviceId === input.service_uuid)
    ) {
      throw fieldError("service_uuid", "The booking has no such service.");
    }
    const targets = loaded.services.filter(
      (s) =>
        (input.service_uuid === undefined || s.serviceId === input.service_uuid) &&
        s.stafferId !== input.staffer_uuid,
    );
    if (targets.length === 0) return null;

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

    const oldEntries = targets
      .map((s) => entryOf(loaded.entries, s))
      .filter((e) => e !== undefined);
    const at = { workspaceId: scope.workspaceId, locationId: loaded.booking.locationId, bookingId };
    const newEntries = targets.map((s) => bookedEntry(at, { ...s, stafferId: input.staffer_uuid }));
    const moved = new Set(targets.map((s) => s.id));
    const reassign = <S extends { id: string; stafferId: string }>(s: S) =>
      moved.has(s.id) ? { ...s, stafferId: input.staffer_uuid } : s;
    return {
      view: {
        ...loaded,
        booking: { ...loaded.booking, updatedAt: now },
        services: loaded.services.map(reassign),
        orderServices: loaded.orderServices.map(reassign),
      },
      event: "booking-staffer-changed",
      claims: movingClaims(oldEntries, newEntries),
      statements: [
        scope.db
          .update(bookingServices)
          .set({ stafferId: input.staffer_uuid })
          .where(whereIn(scope, bookingServices, idIn(bookingServices.id, [...moved]))),
        scope.db.delete(calendarEntries).where(
          whereIn(
            scope,
            calendarEntries,
            idIn(
              calendarEntries.id,
              oldEntries.map((e) => e.id),
            ),
          ),
        ),
        ...insertRows(scope.db, calendarEntries, newEntries),
      ],
    };
  });
}

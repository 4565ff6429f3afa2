import { engineInputs } from "../../availability/engine-input";
import { idIn, insertRows } from "../../db/bounded";
import { loadAvailability, shiftDate } from "../../db/queries/availability";
import { bookingServices, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { MINUTE } from "../../domain/duration";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { utcDate } from "../../lib/clock";
import { bookedEntry, entryOf, movingClaims } from "../calendar-entries";
import { assertPlacementsFit } from "../placement";

export interface ChangeStafferInput {
  /** The staffer who takes over. */
  stafferId: string;
  /** Only this service of the booking; every service when absent. */
  serviceId?: string | undefined;
}

/** Hands one service (or all) to another staffer of the branch; times and prices stay. */
export function changeBookingStaffer(
  deps: BookingDeps,
  bookingId: string,
  input: ChangeStafferInput,
) {
  return changeBooking(deps, bookingId, "change_staffer", async (loaded, { scope, now }) => {
    if (
      input.serviceId !== undefined &&
      !loaded.services.some((s) => s.serviceId === input.serviceId)
    ) {
      throw fieldError("service_uuid", "The booking has no such service.");
    }
    const targets = loaded.services.filter(
      (s) =>
        (input.serviceId === undefined || s.serviceId === input.serviceId) &&
        s.stafferId !== input.stafferId,
    );
    if (targets.length === 0) return null;

    const first = Math.min(...targets.map((s) => s.reservedOn));
    const last = Math.max(...targets.map((s) => s.reservedUntil + s.buffer * MINUTE));
    const availability = await loadAvailability(scope, {
      locationId: loaded.booking.locationId,
      serviceIds: [...new Set(targets.map((s) => s.serviceId))],
      stafferIds: [input.stafferId],
      fromDate: shiftDate(utcDate(first), -1),
      toDate: shiftDate(utcDate(last), 1),
    });
    const inputs = engineInputs(availability);
    if (!inputs) throw new Error("the booking's location vanished");
    for (const s of targets) {
      if (!inputs.performersOf(s.serviceId).some((p) => p.id === input.stafferId)) {
        throw fieldError(
          "staffer_uuid",
          "The staffer must belong to the booking's location, be active and be able to perform the service.",
        );
      }
    }
    assertPlacementsFit(
      inputs,
      targets.map((s) => ({
        stafferId: input.stafferId,
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
    const newEntries = targets.map((s) => bookedEntry(at, { ...s, stafferId: input.stafferId }));
    const moved = new Set(targets.map((s) => s.id));
    const reassign = <S extends { id: string; stafferId: string }>(s: S) =>
      moved.has(s.id) ? { ...s, stafferId: input.stafferId } : s;
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
          .set({ stafferId: input.stafferId })
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

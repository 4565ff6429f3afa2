import { engineInputs } from "../../availability/engine-input";
import { idIn, insertRows } from "../../db/bounded";
import type { Availability } from "../../db/queries/availability";
import { availabilityAlongside } from "../alongside";
import { bookingServices, calendarEntries } from "../../db/schema";
import { whereIn } from "../../db/scope";
import { fieldError } from "../../lib/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
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
  return changeBooking<Availability>(
    deps,
    bookingId,
    "change_staffer",
    async (loaded, { scope, now, alongside: availability, taken }) => {
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

      const inputs = engineInputs(availability, { extraBusy: taken, holdsYield: deps.staff });
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
          serviceId: s.serviceId,
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
      const at = {
        workspaceId: scope.workspaceId,
        locationId: loaded.booking.locationId,
        bookingId,
      };
      // Times stay, so the services keep the resource units they hold.
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
    },
    {},
    // The new staffer over the booking's whole time (a superset of the services handed over).
    availabilityAlongside(bookingId, (its) => ({
      locationId: its.locationId,
      serviceIds: input.serviceId !== undefined ? [input.serviceId] : its.serviceIds,
      stafferIds: [input.stafferId],
      fromDate: its.startDate(-1),
      toDate: its.endDate(1),
    })),
  );
}

import { engineInputs } from "../../calendar/availability/engine-input";
import { availabilityRead, shiftDate } from "../../calendar/queries/availability";
import { bookingRefs } from "../queries/booking-refs";
import type { LoadedBooking } from "../queries/bookings";
import { utcDate } from "../../platform/clock";
import { bookedEntry, bookingOwner, unitEntry } from "../../calendar/planning/calendar-entries";
import { changeBooking } from "../change";
import type { BookingChange } from "../change-value";
import type { BookingDeps } from "../deps";
import { assertPlacementsFit, seatsOf, unitsFor } from "../../calendar/planning/placement";
import type { SessionSeats } from "../../calendar/rules";
import type { PlannedUnit } from "../../calendar/planning/planner";
import { assertPolicyAllows } from "../policy-window";
import { assertHeldAt } from "../../packages/booking-moves";

/** What a reschedule can be wrong about: the new start. */
export type RescheduleSubject = { is: "start" };

export interface RescheduleInput {
  /** The booking's new start, epoch ms. */
  start: number;
  notifyOnReschedule?: boolean | undefined;
  /** The request comes from a customer (publishable key): the location's change policy applies. */
  heldToPolicy?: boolean | undefined;
}

/**
 * Moves every service of the booking by the same amount; staffers stay, and
 * resource units are taken afresh at the new time (any free unit will do).
 * A taken time answers 409 with `alternatives`: starts where the booking fits
 * with the same staffers and shape.
 */
export function rescheduleBooking(deps: BookingDeps, bookingId: string, input: RescheduleInput) {
  const { start } = input;
  return changeBooking(deps, bookingId, {
    op: "reschedule",
    notifies: true,
    // The booking's staffers and services at the new time, read with the booking.
    reads: (scope) => {
      const its = bookingRefs(scope, bookingId);
      return availabilityRead(scope, {
        locationId: its.locationId,
        serviceIds: its.serviceIds,
        stafferIds: its.stafferIds,
        fromDate: shiftDate(utcDate(start), -1),
        toDate: its.movedEndDate(start, 1),
      });
    },
    plan: (loaded, { now, reads: availability, taken, ids, staff, creditHolds }) => {
      if (input.heldToPolicy) assertPolicyAllows("change", loaded, now);
      const delta = start - loaded.booking.startAt;
      // A customer's "move" to where the booking already is changes nothing and tells no one
      // (else each repeat would message the customer without moving anything or revoking a link).
      if (delta === 0 && input.heldToPolicy) return null;
      assertHeldAt(creditHolds, loaded.booking.id, start);
      const inputs = engineInputs(availability, {
        // Its own current time is not in its way.
        ignoreEntries: new Set(loaded.entries.map((e) => e.id)),
        extraBusy: taken,
        holdsYield: staff,
      });
      if (!inputs) throw new Error("the booking's location vanished");
      const placements = loaded.services.map((s) => ({
        serviceId: s.serviceId,
        stafferId: s.stafferId,
        start: s.reservedOn + delta,
        durationMin: s.duration,
        bufferMin: s.buffer,
        seats: s.quantity,
      }));
      assertPlacementsFit(inputs, placements, now, { is: "start" });
      const units = unitsFor(inputs, placements, ids);
      // The customer hears of it when staff ask so, and always when it is their own change.
      return movedBy(loaded, delta, units, seatsOf(inputs, placements), {
        notifyOnReschedule: input.notifyOnReschedule ?? false,
        send: Boolean(input.notifyOnReschedule || input.heldToPolicy),
        entryId: (key) => ids(key),
      });
    },
    alternatives: (loaded) => ({
      locationId: loaded.booking.locationId,
      items: [
        {
          start,
          services: loaded.services.map((s) => ({
            serviceId: s.serviceId,
            stafferId: s.stafferId,
          })),
        },
      ],
      offsetsMs: loaded.services.map((s) => s.reservedOn - loaded.booking.startAt),
      ignoreEntries: new Set(loaded.entries.map((e) => e.id)),
    }),
  });
}

/**
 * The change that moves a booking's services by `delta` ms onto the resource units
 * taken for them at the new time (one reschedule, or one occurrence of a series').
 */
export function movedBy(
  loaded: LoadedBooking,
  delta: number,
  units: PlannedUnit[][],
  /** Each service's seats in its session at the new time (a group service's seats move with it). */
  seats: (SessionSeats | undefined)[],
  how: { notifyOnReschedule: boolean; send: boolean; entryId: (key: string) => string },
): BookingChange {
  const moved = loaded.services.map((s, i) => ({
    ...s,
    reservedOn: s.reservedOn + delta,
    reservedUntil: s.reservedUntil + delta,
    resourceIds: (units[i] ?? []).map((u) => u.resourceId),
    session: seats[i],
  }));
  const owner = bookingOwner(loaded.booking);
  return {
    event: "booking-rescheduled",
    booking: {
      startAt: loaded.booking.startAt + delta,
      endAt: loaded.booking.endAt + delta,
      notifyOnReschedule: how.notifyOnReschedule,
    },
    services: moved.map(({ id, reservedOn, reservedUntil, resourceIds }) => ({
      id,
      reservedOn,
      reservedUntil,
      resourceIds,
    })),
    messages: {
      send: how.send ? "booking-rescheduled" : undefined,
      reminders: "move",
    },
    busy: moved.flatMap((s, i) => [
      bookedEntry(owner, s, how.entryId(`staffer ${s.id}`)),
      ...(units[i] ?? []).map((u) => unitEntry(owner, s, u)),
    ]),
  };
}

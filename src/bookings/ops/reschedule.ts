import { eq } from "drizzle-orm";
import { type ConflictQuery, withAlternatives } from "../../availability/alternatives";
import { engineInputs } from "../../availability/engine-input";
import { type Availability, shiftDate } from "../../db/queries/availability";
import { availabilityAlongside } from "../alongside";
import { bookingServices, bookings, calendarEntries } from "../../db/schema";
import { insertRows } from "../../db/bounded";
import { whereIn } from "../../db/scope";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { utcDate } from "../../lib/clock";
import { bookedEntry, movingClaims, unitEntry } from "../calendar-entries";
import { assertPlacementsFit, unitsFor } from "../placement";
import { assertPolicyAllows } from "../policy-window";

export interface RescheduleInput {
  /** The booking's new start, epoch ms. */
  start: number;
  notifyOnReschedule?: boolean | undefined;
  /** The request comes from a customer (publishable key): the location's change policy applies. */
  heldToPolicy?: boolean | undefined;
}

/**
 * Moves every service of the booking by the same amount; staffers stay. A
 * taken time answers 409 with `alternatives`: starts where the booking fits
 * with the same staffers and shape.
 */
export async function rescheduleBooking(
  deps: BookingDeps,
  bookingId: string,
  input: RescheduleInput,
) {
  let conflict: ConflictQuery | undefined;
  try {
    return await moveBooking(deps, bookingId, input, (query) => (conflict = query));
  } catch (error) {
    throw await withAlternatives(deps.scope, error, conflict);
  }
}

function moveBooking(
  deps: BookingDeps,
  bookingId: string,
  input: RescheduleInput,
  onPlanned: (query: ConflictQuery) => void,
) {
  return changeBooking<Availability>(
    deps,
    bookingId,
    "reschedule",
    async (loaded, { scope, now, alongside: availability, taken, ids }) => {
      if (input.heldToPolicy) assertPolicyAllows("change", loaded, now);
      const start = input.start;
      const delta = start - loaded.booking.startAt;
      const services = loaded.services;
      // Its own current time is not in its way.
      const ownEntries = new Set(loaded.entries.map((e) => e.id));
      onPlanned({
        locationId: loaded.booking.locationId,
        items: [
          {
            start,
            services: services.map((s) => ({ serviceId: s.serviceId, stafferId: s.stafferId })),
          },
        ],
        offsetsMs: services.map((s) => s.reservedOn - loaded.booking.startAt),
        ignoreEntries: ownEntries,
      });
      const inputs = engineInputs(availability, {
        ignoreEntries: ownEntries,
        extraBusy: taken,
        holdsYield: deps.staff,
      });
      if (!inputs) throw new Error("the booking's location vanished");
      const placements = services.map((s) => ({
        serviceId: s.serviceId,
        stafferId: s.stafferId,
        start: s.reservedOn + delta,
        durationMin: s.duration,
        bufferMin: s.buffer,
      }));
      assertPlacementsFit(inputs, placements, now, "reserved_on");
      const units = unitsFor(inputs, placements, ids);

      // Staffers stay; units are taken afresh at the new time (any free unit will do).
      const moved = services.map((s, i) => ({
        ...s,
        reservedOn: s.reservedOn + delta,
        reservedUntil: s.reservedUntil + delta,
        resourceIds: (units[i] ?? []).map((u) => u.resourceId),
      }));
      const at = {
        workspaceId: scope.workspaceId,
        locationId: loaded.booking.locationId,
        bookingId,
      };
      const newEntries = moved.flatMap((s, i) => [
        bookedEntry(at, s, ids(`staffer ${s.id}`)),
        ...(units[i] ?? []).map((u) => unitEntry(at, s, u)),
      ]);
      const booking = {
        ...loaded.booking,
        startAt: loaded.booking.startAt + delta,
        endAt: loaded.booking.endAt + delta,
        notifyOnReschedule: input.notifyOnReschedule ?? false,
        updatedAt: now,
      };
      const orderServices = loaded.orderServices.map((s) => moved.find((m) => m.id === s.id) ?? s);
      return {
        view: { ...loaded, booking, services: moved, orderServices },
        event: "booking-rescheduled",
        claims: movingClaims(loaded.entries, newEntries),
        statements: [
          scope.db
            .update(bookings)
            .set({
              startAt: booking.startAt,
              endAt: booking.endAt,
              notifyOnReschedule: booking.notifyOnReschedule,
              updatedAt: now,
            })
            .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
          ...moved.map((s) =>
            scope.db
              .update(bookingServices)
              .set({
                reservedOn: s.reservedOn,
                reservedUntil: s.reservedUntil,
                resourceIds: s.resourceIds,
              })
              .where(whereIn(scope, bookingServices, eq(bookingServices.id, s.id))),
          ),
          scope.db
            .delete(calendarEntries)
            .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, bookingId))),
          ...insertRows(scope.db, calendarEntries, newEntries),
        ],
      };
    },
    {},
    // The booking's staffers and services at the new time.
    availabilityAlongside(bookingId, (its) => ({
      locationId: its.locationId,
      serviceIds: its.serviceIds,
      stafferIds: its.stafferIds,
      fromDate: shiftDate(utcDate(input.start), -1),
      toDate: its.movedEndDate(input.start, 1),
    })),
  );
}

import { engineInputs } from "../../calendar/availability/engine-input";
import { availabilityRead } from "../../calendar/queries/availability";
import { bookingRefs } from "../queries/booking-refs";
import { invalid } from "../../platform/errors";
import { bookedEntry, bookingOwner, entryOf } from "../../calendar/planning/calendar-entries";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { assertPlacementsFit, seatsOf } from "../../calendar/planning/placement";

/** What a change of staffer can be wrong about: the staffer, the service named. */
export type ChangeStafferSubject = { is: "staffer" } | { is: "service" };

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
  const { stafferId, serviceId } = input;
  return changeBooking(deps, bookingId, {
    notifies: true,
    op: "change_staffer",
    // The new staffer over the booking's whole time (a superset of the services handed over).
    reads: (scope) => {
      const its = bookingRefs(scope, bookingId);
      return availabilityRead(scope, {
        locationId: its.locationId,
        serviceIds: serviceId !== undefined ? [serviceId] : its.serviceIds,
        stafferIds: [stafferId],
        fromDate: its.startDate(-1),
        toDate: its.endDate(1),
      });
    },
    plan: (loaded, { now, reads: availability, taken, staff }) => {
      if (serviceId !== undefined && !loaded.services.some((s) => s.serviceId === serviceId)) {
        throw invalid({ is: "service" }, "The booking has no such service.");
      }
      const targets = loaded.services.filter(
        (s) => (serviceId === undefined || s.serviceId === serviceId) && s.stafferId !== stafferId,
      );
      if (targets.length === 0) return null;

      const inputs = engineInputs(availability, { extraBusy: taken, holdsYield: staff });
      if (!inputs) throw new Error("the booking's location vanished");
      for (const s of targets) {
        if (!inputs.performersOf(s.serviceId).some((p) => p.id === stafferId)) {
          throw invalid(
            { is: "staffer" },
            "The staffer must belong to the booking's location, be active and be able to perform the service.",
          );
        }
      }
      const placements = targets.map((s) => ({
        serviceId: s.serviceId,
        stafferId,
        start: s.reservedOn,
        durationMin: s.duration,
        bufferMin: s.buffer,
        seats: s.quantity,
      }));
      assertPlacementsFit(inputs, placements, now, { is: "staffer" });
      // A group service's seats join the new staffer's session at the same start.
      const seats = seatsOf(inputs, placements);
      // Its room or equipment stays the old session's (the units are not planned again here),
      // and another staffer's session needs a unit of its own: such a class keeps its staffer.
      targets.forEach((s, i) => {
        if (seats[i] && inputs.resourcesOf(s.serviceId).length > 0) {
          throw invalid(
            { is: "staffer" },
            "A class that needs a room or equipment keeps its staffer; reschedule it, or cancel and book it with the other staffer.",
          );
        }
      });
      // Times stay, so the services keep the resource units they hold; only staffer time moves.
      const handedOver = new Set(targets.map((s) => entryOf(loaded.entries, s)?.id));
      const owner = bookingOwner(loaded.booking);
      return {
        event: "booking-staffer-changed",
        // Its reminders name the staffer and services: written again, at the same time.
        messages: { reminders: "move" },
        services: targets.map((s) => ({ id: s.id, stafferId })),
        busy: [
          ...loaded.entries.filter((e) => !handedOver.has(e.id)),
          ...targets.map((s, i) => bookedEntry(owner, { ...s, stafferId, session: seats[i] })),
        ],
      };
    },
  });
}

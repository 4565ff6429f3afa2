import { engineInputs } from "../../calendar/availability/engine-input";
import {
  occurrenceAlternatives,
  type RefusedOccurrence,
} from "../../calendar/availability/series-alternatives";
import type { LoadedBooking } from "../queries/bookings";
import { seriesAvailabilityRead } from "../queries/series-read";
import { isOpen } from "../rules/booking-rules";
import { localShift } from "../rules/shift";
import { toIso } from "../../platform/clock";
import { ApiError, InvalidError, invalid } from "../../platform/errors";
import { changeSeries } from "../change-many";
import { movedBy } from "../ops/reschedule";
import type { BookingDeps } from "../deps";
import {
  assertPlacementsFit,
  type Placement,
  seatsOf,
  unitsFor,
} from "../../calendar/planning/placement";
import { occurrence, upcomingOpen } from "./occurrences";
import { assertHeldAt } from "../../packages/booking-moves";

/** What a series reschedule can be wrong about: the new start, the occurrence it starts from. */
export type SeriesRescheduleSubject = { is: "start" } | { is: "occurrence" };

export interface SeriesRescheduleInput {
  /** The occurrence that moves first; every later open one moves with it. */
  fromBookingId: string;
  /** Its new start, epoch ms. */
  start: number;
  notifyOnReschedule?: boolean | undefined;
}

/** Occurrences that cannot move: each with where it was asked to go. */
class OccurrencesRefused extends ApiError {
  constructor(
    readonly refused: RefusedOccurrence[],
    readonly ignoreEntries: ReadonlySet<string>,
  ) {
    super(
      "slot_unavailable",
      `${refused.length} occurrence${refused.length === 1 ? "" : "s"} of the series cannot move there; nothing was moved.`,
      {
        conflicts: refused.map((r) => ({
          start: toIso(r.start),
          reason: r.reason,
          alternatives: [],
        })),
      },
    );
  }
}

const closed = () =>
  new ApiError(
    "booking_closed",
    "The occurrence is completed or canceled; it can no longer be moved.",
  );

const layoutOf = (b: LoadedBooking, start: number) => {
  const delta = start - b.booking.startAt;
  const placements: Placement[] = b.services.map((s) => ({
    serviceId: s.serviceId,
    stafferId: s.stafferId,
    start: s.reservedOn + delta,
    durationMin: s.duration,
    bufferMin: s.buffer,
    seats: s.quantity,
  }));
  return { delta, placements };
};

/**
 * Moves one occurrence of a series and every later open one by the same
 * local-time shift in the location's zone (10:00 → 11:00 stays 11:00 local
 * across a DST change), as ONE change: each occurrence is checked as a single
 * reschedule checks its booking (working hours, notice, busy time, holds,
 * resource units), and if any cannot move the answer is 409
 * `slot_unavailable` with `conflicts` (each refused start with free starts
 * near it) and nothing is written. Staffers stay; units are taken afresh.
 * Staff only (a secret key): not held to the change policy.
 */
export function rescheduleSeries(
  deps: BookingDeps,
  seriesId: string,
  input: SeriesRescheduleInput,
) {
  const { start } = input;
  return changeSeries(deps, seriesId, {
    notifies: true,
    reads: (scope) =>
      seriesAvailabilityRead(scope, seriesId, { bookingId: input.fromBookingId, start }),
    plan: (loaded, { now, reads: availability, taken, ids, staff, creditHolds }) => {
      const from = occurrence(loaded, input.fromBookingId);
      if (!isOpen(from.booking)) throw closed();
      if (from.booking.startAt <= now)
        throw invalid(
          { is: "occurrence" },
          "The occurrence has already started; only upcoming occurrences move.",
        );
      const moving = upcomingOpen(loaded, from.booking.startAt, now);
      const ignoreEntries = new Set(moving.flatMap((b) => b.entries.map((e) => e.id)));
      const inputs = engineInputs(availability, {
        // The series' own moving time is not in its way.
        ignoreEntries,
        extraBusy: taken,
        holdsYield: staff,
      });
      if (!inputs) throw new Error("the series' location vanished");
      const shift = localShift(from.booking.startAt, start, inputs.rules.timezone);
      const refused: RefusedOccurrence[] = [];
      const planned = moving.flatMap((b) => {
        const newStart = b === from ? start : shift.apply(b.booking.startAt);
        const { delta, placements } = layoutOf(b, newStart);
        const scoped = (key: string) => ids(`${b.booking.id} ${key}`);
        try {
          assertPlacementsFit(inputs, placements, now, { is: "start" });
          const units = unitsFor(inputs, placements, scoped);
          return [{ b, delta, units, seats: seatsOf(inputs, placements) }];
        } catch (error) {
          // The first occurrence is refused as a single reschedule would be (422 on its start);
          // any occurrence that does not fit is a conflict of the whole request.
          if (b === from && error instanceof InvalidError) throw error;
          const cannotMove =
            error instanceof InvalidError ||
            (error instanceof ApiError &&
              (error.code === "slot_unavailable" || error.code === "session_full"));
          if (!cannotMove) throw error;
          refused.push({
            start: newStart,
            reason: error instanceof InvalidError ? "outside_working_hours" : "slot_unavailable",
            services: b.services.map((s) => ({
              serviceId: s.serviceId,
              stafferId: s.stafferId,
              durationMin: s.duration,
              bufferMin: s.buffer,
            })),
            offsetsMs: b.services.map((s) => s.reservedOn - b.booking.startAt),
          });
          return [];
        }
      });
      if (refused.length > 0) throw new OccurrencesRefused(refused, ignoreEntries);
      for (const { b, delta } of planned)
        assertHeldAt(creditHolds, b.booking.id, b.booking.startAt + delta);
      return planned.map(({ b, delta, units, seats }) => ({
        loaded: b,
        change: movedBy(b, delta, units, seats, {
          notifyOnReschedule: input.notifyOnReschedule ?? false,
          send: Boolean(input.notifyOnReschedule),
          entryId: (key) => ids(`${b.booking.id} ${key}`),
        }),
      }));
    },
    refusal: async (error, loaded) => {
      if (!(error instanceof OccurrencesRefused)) return error;
      const alternatives = await occurrenceAlternatives(deps.scope, {
        locationId: loaded.series.locationId,
        ignoreEntries: error.ignoreEntries,
        refused: error.refused,
      });
      return new ApiError("slot_unavailable", error.message, {
        conflicts: error.refused.map((r, i) => ({
          start: toIso(r.start),
          reason: r.reason,
          alternatives: alternatives[i] ?? [],
        })),
      });
    },
  });
}

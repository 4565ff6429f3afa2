import { changeSeries } from "../change-many";
import type { BookingDeps } from "../deps";
import { occurrence, upcomingOpen } from "./occurrences";

export interface SeriesCancelInput {
  /** Cancel from this occurrence on; every upcoming one when absent. */
  fromBookingId?: string | undefined;
  /** Why: canceled (the default), didnt_come, postponed, … */
  cancelReason?: string | undefined;
}

/**
 * Cancels every open occurrence of the series from one on (every upcoming
 * one when none is named) as ONE change: all of them or none, their time
 * freed in one call per calendar, one `booking-canceled` event per
 * occurrence and one message to the customer listing them. Staff only (a
 * secret key), so not held to the location's cancellation policy. Nothing
 * left to cancel answers the series as it is.
 */
export function cancelSeries(deps: BookingDeps, seriesId: string, input: SeriesCancelInput) {
  return changeSeries(deps, seriesId, {
    notifies: true,
    plan: (loaded, { now }) => {
      const from = input.fromBookingId
        ? occurrence(loaded, input.fromBookingId).booking.startAt
        : Number.NEGATIVE_INFINITY;
      return upcomingOpen(loaded, from, now).map((b) => ({
        loaded: b,
        change: {
          event: "booking-canceled",
          booking: {
            isCanceled: true,
            cancelReason: input.cancelReason ?? "canceled",
            canceledBy: null,
            canceledAt: now,
          },
          busy: [],
          messages: { send: "booking-canceled", reminders: "cancel" },
        },
      }));
    },
  });
}

import { invalid } from "../../platform/errors";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";

/** What a status change can be wrong about: the status named. */
export type StatusSubject = { is: "status" };

export function setBookingStatus(deps: BookingDeps, bookingId: string, statusId: string) {
  return changeBooking(deps, bookingId, {
    op: "status",
    refs: { statusId },
    plan: (loaded) => {
      if (!loaded.newStatus)
        throw invalid({ is: "status" }, "Not one of the workspace's booking statuses.");
      return { event: "booking-status-changed", booking: { statusId }, status: loaded.newStatus };
    },
  });
}

export function setPublicNotes(deps: BookingDeps, bookingId: string, value: string) {
  return changeBooking(deps, bookingId, {
    op: "notes",
    plan: () => ({ event: "booking-notes-updated", booking: { publicNotes: value } }),
  });
}

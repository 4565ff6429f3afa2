import { cancelBooking } from "../../../bookings/ops/cancel";
import { changeBookingStaffer } from "../../../bookings/ops/change-staffer";
import { completeBooking } from "../../../bookings/ops/complete";
import { replaceBookingService } from "../../../bookings/ops/replace-service";
import { rescheduleBooking } from "../../../bookings/ops/reschedule";
import { setBookingStatus, setPublicNotes } from "../../../bookings/ops/status";
import { bookingChange } from "./change-route";
import {
  CancelBody,
  ChangeStafferBody,
  CompleteBody,
  PublicNotesBody,
  ReplaceServiceBody,
  RescheduleBody,
  StatusBody,
} from "./schema";

/** The booking lifecycle operations of the reference, each through the StafferCalendar where time changes. */
export const registerChanges = [
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/status/complete",
    summary: "Mark a booking complete",
    body: CompleteBody,
    run: (deps, id, body) =>
      completeBooking(deps, id, {
        accountId: body.account_uuid,
        internalNotes: body.internal_notes,
        paidAmount: body.paid_amount,
        stafferId: body.staffer_uuid,
      }),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/status/cancel",
    summary: "Cancel a booking",
    body: CancelBody,
    run: (deps, id, body) =>
      cancelBooking(deps, id, {
        cancelReason: body.cancel_reason,
        internalNotes: body.internal_notes,
        stafferId: body.staffer_uuid,
      }),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/status",
    summary: "Set the workspace status of a booking",
    body: StatusBody,
    run: (deps, id, body) => setBookingStatus(deps, id, body.status_uuid),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/reschedule",
    summary: "Move a booking to a new start",
    body: RescheduleBody,
    run: (deps, id, body) =>
      rescheduleBooking(deps, id, {
        start: Date.parse(body.reserved_on),
        notifyOnReschedule: body.is_send_notification_on_reschedule,
      }),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/staffer",
    summary: "Hand a booking's service(s) to another staffer",
    body: ChangeStafferBody,
    run: (deps, id, body) =>
      changeBookingStaffer(deps, id, {
        stafferId: body.staffer_uuid,
        serviceId: body.service_uuid,
      }),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/services",
    summary: "Replace the service of a simple booking",
    body: ReplaceServiceBody,
    run: (deps, id, body) => replaceBookingService(deps, id, body.service_uuid),
  }),
  bookingChange({
    method: "post",
    path: "/bookings/{booking_uuid}/public_notes",
    summary: "Set the public note of a booking",
    body: PublicNotesBody,
    run: (deps, id, body) => setPublicNotes(deps, id, body.value),
  }),
];

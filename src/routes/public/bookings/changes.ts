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
    run: completeBooking,
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/status/cancel",
    summary: "Cancel a booking",
    body: CancelBody,
    run: cancelBooking,
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/status",
    summary: "Set the workspace status of a booking",
    body: StatusBody,
    run: (c, id, body) => setBookingStatus(c, id, body.status_uuid),
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/reschedule",
    summary: "Move a booking to a new start",
    body: RescheduleBody,
    run: rescheduleBooking,
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/staffer",
    summary: "Hand a booking's service(s) to another staffer",
    body: ChangeStafferBody,
    run: changeBookingStaffer,
  }),
  bookingChange({
    method: "put",
    path: "/bookings/{booking_uuid}/services",
    summary: "Replace the service of a simple booking",
    body: ReplaceServiceBody,
    run: (c, id, body) => replaceBookingService(c, id, body.service_uuid),
  }),
  bookingChange({
    method: "post",
    path: "/bookings/{booking_uuid}/public_notes",
    summary: "Set the public note of a booking",
    body: PublicNotesBody,
    run: (c, id, body) => setPublicNotes(c, id, body.value),
  }),
];

import type { BookingDeps } from "../bookings/deps";
import { cancelBooking } from "../bookings/ops/cancel";
import { rescheduleBooking } from "../bookings/ops/reschedule";
import type { Scope } from "../db/scope";
import { unknownBooking } from "./booking-status";
import { invalidArgument, missing } from "./wire/invalid";
import {
  googleBookingNow,
  markGoogleVersion,
  type GoogleBookingNow,
} from "./queries/google-bookings";
import { updateFailure } from "./rules/update-failure";
import { beyondHorizon } from "./rules/failures";
import { googleBookingOut } from "./views/booking";
import type { FailureCause } from "./wire/enums";
import type { UpdateBookingRequest } from "./wire/requests";
import type { UpdateBookingResponse } from "./wire/responses";

type Asked = NonNullable<UpdateBookingRequest["booking"]>;
type Change = { kind: "cancel" } | { kind: "move"; slot: NonNullable<Asked["slot"]> };

const refused = (message: string, field: string) => invalidArgument(field, message);

/** What the request asks: a cancel (status CANCELED) or a move (a slot), never both or neither. */
function changeOf(asked: Asked): Change {
  const cancels = asked.status === "CANCELED";
  // Google may echo the booking's status with a new slot: only CANCELED asks for a change.
  const other = !cancels && !["BOOKING_STATUS_UNSPECIFIED", "CONFIRMED"].includes(asked.status);
  if (other) throw refused("Only CANCELED can be asked for as a status.", "booking.status");
  if (cancels && asked.slot) {
    throw refused("A booking is canceled or moved, not both at once.", "booking");
  }
  if (cancels) return { kind: "cancel" };
  if (!asked.slot) throw refused("Ask for status CANCELED or a new slot.", "booking");
  if (!asked.slot.start_sec) throw missing("booking.slot.start_sec");
  return { kind: "move", slot: asked.slot };
}

/**
 * Why a slot cannot be the booking's new time before any calendar is asked: a slot names
 * the booking's merchant, service and staffer (or leaves them out) and lasts as its service.
 */
function moveMismatch(slot: NonNullable<Asked["slot"]>, now: NonNullable<GoogleBookingNow>) {
  const staff = slot.resources?.staff_id ?? "";
  return (
    (slot.merchant_id !== "" && slot.merchant_id !== now.locationId) ||
    (slot.service_id !== "" && slot.service_id !== now.serviceId) ||
    (staff !== "" && staff !== now.stafferId) ||
    (slot.duration_sec !== 0 && slot.duration_sec * 1000 !== now.endAt - now.startAt)
  );
}

const failed = (cause: FailureCause, description: string): UpdateBookingResponse => ({
  booking_failure: { cause, description },
});

/**
 * UpdateBooking: cancels or moves a booking Google made, as its customer would (the
 * location's policies, the per-booking change limit, the customer's messages). The change
 * records, in its own batch, the booking's version after it (`markGoogleVersion`), so the
 * real-time notifier does not tell Google of its own change. A refusal of the booking's
 * state or time is a `booking_failure` (HTTP 200); the limits, a change lost twice and a
 * moving workspace stay HTTP errors. A second cancel is BOOKING_ALREADY_CANCELLED.
 */
export async function updateGoogleBooking(
  deps: BookingDeps,
  req: UpdateBookingRequest,
): Promise<UpdateBookingResponse> {
  const asked = req.booking;
  if (!asked) throw missing("booking");
  if (!asked.booking_id) throw missing("booking.booking_id");
  const change = changeOf(asked);
  const { scope } = deps;
  const id = asked.booking_id;
  const before = await googleBookingNow(scope, id);
  if (!before) throw unknownBooking();
  if (change.kind === "move" && moveMismatch(change.slot, before)) {
    return failed("SLOT_UNAVAILABLE", "The booking cannot take that slot.");
  }
  if (change.kind === "move" && beyondHorizon(change.slot.start_sec, Date.now())) {
    return failed("SLOT_UNAVAILABLE", "The start is too far ahead.");
  }
  const marked: BookingDeps = {
    ...deps,
    changeAlongside: (record) => [markGoogleVersion(scope, id, record.booking.version)],
  };
  try {
    if (change.kind === "cancel") {
      await cancelBooking(marked, id, { caller: "customer", cancelReason: "canceled" });
    } else {
      await rescheduleBooking(marked, id, {
        start: change.slot.start_sec * 1000,
        heldToPolicy: true,
      });
    }
  } catch (error) {
    const failure = updateFailure(error, change.kind, await stateOf(scope, id));
    if (!failure) throw error;
    return failed(failure.cause, failure.description);
  }
  const after = await googleBookingNow(scope, id);
  if (!after) throw unknownBooking();
  return { booking: googleBookingOut(after) };
}

/** Whether the booking is canceled now (a closed booking is canceled or completed). */
async function stateOf(scope: Scope, id: string) {
  const now = await googleBookingNow(scope, id);
  return { isCanceled: now?.isCanceled ?? false };
}

import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { CancelSubject } from "../../rules/booking-rules";
import { cancelBooking } from "../../ops/cancel";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, CancelBody } from "./schema";
import { CUSTOMER_CHANGE_MESSAGES } from "./publishable";

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<CancelSubject> = {
  reason: "cancel_reason",
  notes: "internal_notes",
  staffer: "staffer_uuid",
  fee: "charge_fee",
};

export const route = defineRoute({
  operationId: "cancelBooking",
  keys: "publishable",
  method: "put",
  path: "/bookings/{booking_uuid}/status/cancel",
  tags: ["Bookings"],
  summary: "Cancel a booking",
  description:
    "Cancels the booking (cancel_reason defaults to canceled) and frees its staffers' time. A booking is canceled at most once and never after it was completed: those answer 409 booking_closed. A publishable key (a customer) is held to the location's policy: less than cancellation_offset minutes before the start (when it is not 0) it answers 409 policy_window_passed; a secret key (staff) is not held to it. A publishable key's cancel is recorded with canceled_by `customer` and may give only cancel_reason canceled, postponed or other; any other reason, internal_notes, staffer_uuid or charge_fee is 422 (nothing is written), since those are staff's to record. A booking paid online (or with a card on file) is settled after the answer: a customer's cancel before its payment's cancel_fee_from refunds everything paid online, from then on the late-cancel fee is kept out of it (the rest refunded) and what it does not cover is charged to the saved card; staff's cancel refunds everything unless charge_fee asks for the late-cancel fee (or, with cancel_reason didnt_come, the no-show fee). A declined card is recorded as a failed payment in the booking's ledger (GET /bookings/{uuid}/payments); the cancel stands. A customer's changes of one booking (a publishable key's and its manage link's together) are limited to 5 a minute: past that, 429 rate_limited with Retry-After; staff are not limited per booking. A package credit the booking holds (booked with customer_package_uuid) goes back to its package, unless the service's policy when booked would have charged a fee: cancelled within its late-cancel window before the start, or a no-show (didnt_come) with a no-show fee; then the credit is used (a package-credit-used event) and is the fee: a credit-paid service is never charged one in money. " +
    CUSTOMER_CHANGE_MESSAGES,
  request: { params: BookingPath, ...jsonBody(CancelBody) },
  responses: changeResponses(
    {
      description:
        "The booking is completed or canceled (`booking_closed`), another request changed it at the same moment (`booking_changed`), or, with a publishable key, the location's cancellation_offset before the start has passed (`policy_window_passed`)",
      codes: ["booking_closed", "booking_changed", "policy_window_passed"],
    },
    "A field is invalid or staffer_uuid is unknown; with a publishable key, a staff-only cancel_reason (didnt_come, wrong_order, spam), internal_notes, staffer_uuid or charge_fee",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    cancelBooking(c.var.deps, bookingId, {
      cancelReason: body.cancel_reason,
      internalNotes: body.internal_notes,
      stafferId: body.staffer_uuid,
      chargeFee: body.charge_fee,
      caller: c.var.deps.caller,
    }),
  );
  return c.json(booking, 200);
};

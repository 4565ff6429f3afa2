import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { completeBooking } from "../../../bookings/ops/complete";
import type { PublicEnv } from "../../../env";
import { jsonBody } from "../../../lib/responses";
import { changeResponses } from "./change-responses";
import { bookingDeps } from "./deps";
import { BookingPath, CompleteBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/status/complete",
  tags: ["Bookings"],
  summary: "Mark a booking complete",
  description:
    "Marks the booking completed and credits paid_amount (default: the booking's own total) to the account, which must belong to the booking's location. The booking's order becomes paid once what was paid covers its total. A booking is completed at most once: a second complete, or a complete after a cancel, answers 409 booking_closed.",
  request: { params: BookingPath, ...jsonBody(CompleteBody) },
  responses: changeResponses(
    {
      description:
        "The booking is completed or canceled (`booking_closed`), or another request changed it at the same moment (`booking_changed`)",
      codes: ["booking_closed", "booking_changed"],
    },
    "A field is invalid, account_uuid is unknown or belongs to another location, or staffer_uuid is unknown",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await completeBooking(bookingDeps(c), bookingId, {
    accountId: body.account_uuid,
    internalNotes: body.internal_notes,
    paidAmount: body.paid_amount,
    stafferId: body.staffer_uuid,
  });
  return c.json(booking, 200);
};

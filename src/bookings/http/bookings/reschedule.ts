import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { RescheduleSubject } from "../../ops/reschedule";
import { rescheduleBooking } from "../../ops/reschedule";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, RescheduleBody } from "./schema";
import { CUSTOMER_CHANGE_MESSAGES } from "./publishable";

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<RescheduleSubject> = { start: "reserved_on" };

export const route = defineRoute({
  operationId: "rescheduleBooking",
  keys: "publishable",
  method: "put",
  path: "/bookings/{booking_uuid}/reschedule",
  tags: ["Bookings"],
  summary: "Move a booking to a new start",
  description:
    "Moves every service of the booking by the same amount so that the booking starts at reserved_on; staffers, prices and durations stay. The new times must be inside the staffers' working hours and the minimum notice (422 on reserved_on) and free (409 slot_unavailable); the booking's own current time does not count as taken. A publishable key (a customer) is held to the location's policy: less than change_offset minutes before the booking's current start (when it is not 0) it answers 409 policy_window_passed; a secret key (staff) is not held to it. A customer's changes of one booking (a publishable key's and its manage link's together) are limited to 5 a minute, since each may message the customer: past that, 429 rate_limited with Retry-After; staff are not limited per booking. A customer's move to the booking's current start changes nothing and tells no one. A booking paid by a package credit moves only to a start before that credit expires (409 package_unavailable). " +
    CUSTOMER_CHANGE_MESSAGES,
  request: { params: BookingPath, ...jsonBody(RescheduleBody) },
  responses: changeResponses(
    {
      description:
        "The booking is completed or canceled (`booking_closed`), the new time is taken (`slot_unavailable`), a group session there has too few seats left (`session_full`), another request changed the booking at the same moment (`booking_changed`), or, with a publishable key, the location's change_offset before the current start has passed (`policy_window_passed`), or a package credit paying for it expires before the new start (`package_unavailable`: nothing moves)",
      codes: [
        "booking_closed",
        "slot_unavailable",
        "session_full",
        "booking_changed",
        "policy_window_passed",
        "package_unavailable",
      ],
    },
    "reserved_on is not a UTC instant, is in the past or inside the minimum notice, or is outside a staffer's working hours",
    true,
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    rescheduleBooking(c.var.deps, bookingId, {
      start: Date.parse(body.reserved_on),
      notifyOnReschedule: body.is_send_notification_on_reschedule,
      heldToPolicy: c.var.deps.caller === "customer",
    }),
  );
  return c.json(booking, 200);
};

import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { createBookings } from "../../create";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  calendarWriteErrors,
  conflictErrors,
  errorCodes,
  json,
  jsonBody,
} from "../../../http/responses";
import { paymentRequiredError, PUBLISHABLE_BOOKINGS } from "./publishable";
import { clientFields } from "./client-fields";
import { SINGLE_BOOKING_FIELDS } from "./fields";
import { withFields } from "../../../http/request-fields";
import { BookingSchema } from "../../views/booking-schema";
import { CreateBookingBody, CUSTOMER_MATCH, SEATS } from "./schema";

export const route = defineRoute({
  operationId: "createBooking",
  keys: "publishable",
  method: "post",
  path: "/bookings",
  tags: ["Bookings"],
  summary: "Create a single-service booking",
  description: `${CUSTOMER_MATCH} Without staffer_uuid one of the free eligible staff is assigned. A time already taken answers 409 slot_unavailable; a time in the past or outside working hours 422. ${SEATS} ${PUBLISHABLE_BOOKINGS}`,
  request: jsonBody(CreateBookingBody),
  responses: {
    201: json(BookingSchema, "Created"),
    ...authErrors,
    ...calendarWriteErrors,
    ...paymentRequiredError,
    429: errorCodes(
      "Rate limited (`rate_limited`), or a publishable key's visitor already made the most bookings of the last day (`too_many_bookings`); see Retry-After",
      ["rate_limited", "too_many_bookings"],
    ),
    ...conflictErrors(
      "The time is taken (`slot_unavailable`, with `alternatives`), the group session has fewer seats left than `quantity` (`session_full`, with `alternatives`), the reservation expired or was used (`reservation_expired`), or the customer package cannot pay (`package_unavailable`)",
      ["slot_unavailable", "session_full", "reservation_expired", "package_unavailable"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const items = [
    {
      start: Date.parse(body.reserved_on),
      services: [
        {
          serviceId: body.service_uuid,
          stafferId: body.staffer_uuid,
          quantity: body.quantity,
          packageId: body.customer_package_uuid,
        },
      ],
    },
  ];
  const [booking] = await withFields(SINGLE_BOOKING_FIELDS, () =>
    createBookings(c.var.deps, {
      country: c.var.workspace.country,
      locationId: body.location_uuid,
      items,
      ...clientFields(body),
      reservationId: body.reservation_uuid,
      caller: c.var.deps.caller,
      visitor: c.var.deps.visitor,
      // A customer's answer: each booking's manage link and whom its confirmation went to.
      customerAnswer: !c.var.deps.staff,
    }),
  );
  if (!booking) throw new Error("no booking was created");
  return c.json(booking, 201);
};

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
import { CART_FIELDS } from "./fields";
import { withFields } from "../../../http/request-fields";
import { CartResponse, CreateCartBody, CUSTOMER_MATCH } from "./schema";

export const route = defineRoute({
  operationId: "createCartBookings",
  keys: "publishable",
  method: "post",
  path: "/bookings/cart",
  tags: ["Bookings"],
  summary: "Create a multi-service (cart) booking",
  description: `One order, one booking per item; the services of an item run back to back from its start (each service's buffer before the next). Every item is claimed or none is. ${CUSTOMER_MATCH} ${PUBLISHABLE_BOOKINGS}`,
  request: jsonBody(CreateCartBody),
  responses: {
    201: json(CartResponse, "Created"),
    ...authErrors,
    ...calendarWriteErrors,
    ...paymentRequiredError,
    429: errorCodes(
      "Rate limited (`rate_limited`), or a publishable key's visitor already made the most bookings of the last day (`too_many_bookings`); see Retry-After",
      ["rate_limited", "too_many_bookings"],
    ),
    ...conflictErrors(
      "A time is taken (`slot_unavailable`, with `alternatives` for the first item that does not fit), a group session has fewer seats left than its `quantity` (`session_full`, with `alternatives`), the reservation expired or was used (`reservation_expired`), or a customer package cannot pay (`package_unavailable`: two services naming one package take two credits)",
      ["slot_unavailable", "session_full", "reservation_expired", "package_unavailable"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const items = body.items.map((item) => ({
    start: Date.parse(item.datetime_start),
    services: item.services.map((s) => ({
      serviceId: s.service_uuid,
      stafferId: s.staffer_uuid,
      quantity: s.quantity,
      packageId: s.customer_package_uuid,
    })),
  }));
  const bookings = await withFields(CART_FIELDS, () =>
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
  return c.json({ bookings }, 201);
};

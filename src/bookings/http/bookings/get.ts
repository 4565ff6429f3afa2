import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { loadBooking } from "../../queries/bookings";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderBooking } from "../../views/booking";
import { BookingSchema } from "../../views/booking-schema";
import { BookingPath } from "./schema";

export const route = defineRoute({
  operationId: "getBooking",
  keys: "publishable",
  method: "get",
  path: "/bookings/{booking_uuid}",
  tags: ["Bookings"],
  summary: "Get a booking",
  request: { params: BookingPath },
  responses: {
    200: json(BookingSchema, "The booking"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("booking"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const view = await loadBooking(c.var.deps.scope, id);
  if (!view) throw notFound("Booking");
  return c.json(renderBooking(view, c.var.deps.render), 200);
};

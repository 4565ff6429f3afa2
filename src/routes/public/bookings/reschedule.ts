import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { rescheduleBooking } from "../../../bookings/ops/reschedule";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, RescheduleBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/reschedule",
  tags: ["Bookings"],
  summary: "Move a booking to a new start",
  request: { params: BookingPath, ...jsonBody(RescheduleBody) },
  responses: {
    200: json(BookingSchema, "The booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await rescheduleBooking(c, id, body), 200);
};

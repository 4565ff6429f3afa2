import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { completeBooking } from "../../../bookings/ops/complete";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, CompleteBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/status/complete",
  tags: ["Bookings"],
  summary: "Mark a booking complete",
  request: { params: BookingPath, ...jsonBody(CompleteBody) },
  responses: {
    200: json(BookingSchema, "Completed booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await completeBooking(c, id, body), 200);
};

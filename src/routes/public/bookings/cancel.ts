import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { cancelBooking } from "../../../bookings/ops/cancel";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, CancelBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/status/cancel",
  tags: ["Bookings"],
  summary: "Cancel a booking",
  request: { params: BookingPath, ...jsonBody(CancelBody) },
  responses: {
    200: json(BookingSchema, "Canceled booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await cancelBooking(c, id, body), 200);
};

import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { setBookingStatus } from "../../../bookings/ops/status";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, StatusBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/status",
  tags: ["Bookings"],
  summary: "Set the workspace status of a booking",
  request: { params: BookingPath, ...jsonBody(StatusBody) },
  responses: {
    200: json(BookingSchema, "The booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await setBookingStatus(c, id, body.status_uuid), 200);
};

import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { replaceBookingService } from "../../../bookings/ops/replace-service";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, ReplaceServiceBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/services",
  tags: ["Bookings"],
  summary: "Replace the service of a simple booking",
  request: { params: BookingPath, ...jsonBody(ReplaceServiceBody) },
  responses: {
    200: json(BookingSchema, "The booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await replaceBookingService(c, id, body.service_uuid), 200);
};

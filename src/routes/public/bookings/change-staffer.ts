import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { changeBookingStaffer } from "../../../bookings/ops/change-staffer";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, ChangeStafferBody } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/bookings/{booking_uuid}/staffer",
  tags: ["Bookings"],
  summary: "Hand a booking's service(s) to another staffer",
  request: { params: BookingPath, ...jsonBody(ChangeStafferBody) },
  responses: {
    200: json(BookingSchema, "The booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await changeBookingStaffer(c, id, body), 200);
};

import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { setPublicNotes } from "../../../bookings/ops/status";
import type { AppEnv } from "../../../env";
import { ErrorBodySchema } from "../../../lib/error-body";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BookingPath, BookingSchema, PublicNotesBody } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/bookings/{booking_uuid}/public_notes",
  tags: ["Bookings"],
  summary: "Set the public note of a booking",
  request: { params: BookingPath, ...jsonBody(PublicNotesBody) },
  responses: {
    200: json(BookingSchema, "The booking"),
    409: json(ErrorBodySchema, "Closed booking or slot taken"),
    ...errorResponses,
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await setPublicNotes(c, id, body.value), 200);
};

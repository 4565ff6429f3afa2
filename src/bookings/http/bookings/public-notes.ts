import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { setPublicNotes } from "../../ops/status";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, PublicNotesBody } from "./schema";

export const route = defineRoute({
  operationId: "setBookingPublicNotes",
  keys: "secret",
  method: "post",
  path: "/bookings/{booking_uuid}/public_notes",
  tags: ["Bookings"],
  summary: "Set the public note of a booking",
  description:
    "Sets the note the customer sees (value, at most 5000 characters; empty clears it). Completed and canceled bookings keep this: their note can still be set.",
  request: { params: BookingPath, ...jsonBody(PublicNotesBody) },
  responses: changeResponses(
    {
      description: "Another request changed the booking at the same moment",
      codes: ["booking_changed"],
    },
    "value is missing or too long",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await setPublicNotes(c.var.deps, bookingId, body.value);
  return c.json(booking, 200);
};

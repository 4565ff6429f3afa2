import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { StatusSubject } from "../../ops/status";
import { setBookingStatus } from "../../ops/status";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, StatusBody } from "./schema";

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<StatusSubject> = { status: "status_uuid" };

export const route = defineRoute({
  operationId: "setBookingStatus",
  keys: "secret",
  method: "put",
  path: "/bookings/{booking_uuid}/status",
  tags: ["Bookings"],
  summary: "Set the workspace status of a booking",
  description:
    "Sets one of the workspace's own booking statuses (GET /booking-statuses). Completed and canceled bookings keep this: their status can still be set.",
  request: { params: BookingPath, ...jsonBody(StatusBody) },
  responses: changeResponses(
    {
      description: "Another request changed the booking at the same moment",
      codes: ["booking_changed"],
    },
    "status_uuid is not one of the workspace's booking statuses",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    setBookingStatus(c.var.deps, bookingId, body.status_uuid),
  );
  return c.json(booking, 200);
};

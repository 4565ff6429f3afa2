import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { ReplaceServiceSubject } from "../../ops/replace-service";
import { replaceBookingService } from "../../ops/replace-service";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, ReplaceServiceBody } from "./schema";

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<ReplaceServiceSubject> = { service: "service_uuid" };

export const route = defineRoute({
  operationId: "replaceBookingServices",
  keys: "secret",
  method: "put",
  path: "/bookings/{booking_uuid}/services",
  tags: ["Bookings"],
  summary: "Replace the service of a simple booking",
  description:
    "Swaps the service of a simple booking (open, one service, quantity 1, one slot, nothing paid, no POS goods on its order; otherwise 409 booking_not_replaceable). Name, price, duration and tax come from the new service and the end moves; the staffer stays and must perform the new service and be free for its length.",
  request: { params: BookingPath, ...jsonBody(ReplaceServiceBody) },
  responses: changeResponses(
    {
      description:
        "The booking is not a simple open unpaid booking (`booking_not_replaceable`), the longer time is taken (`slot_unavailable`), the group session the new service would join has no seat left (`session_full`), or another request changed the booking at the same moment (`booking_changed`)",
      codes: ["booking_not_replaceable", "slot_unavailable", "session_full", "booking_changed"],
    },
    "service_uuid is unknown, not offered at the booking's location, or not performed by the booking's staffer, or the new end is outside working hours",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    replaceBookingService(c.var.deps, bookingId, body.service_uuid),
  );
  return c.json(booking, 200);
};

import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { ChangeStafferSubject } from "../../ops/change-staffer";
import { changeBookingStaffer } from "../../ops/change-staffer";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { BookingPath, ChangeStafferBody } from "./schema";

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<ChangeStafferSubject> = {
  staffer: "staffer_uuid",
  service: "service_uuid",
};

export const route = defineRoute({
  operationId: "changeBookingStaffer",
  keys: "secret",
  method: "put",
  path: "/bookings/{booking_uuid}/staffer",
  tags: ["Bookings"],
  summary: "Hand a booking's service(s) to another staffer",
  description:
    "Hands the service service_uuid, or every service of the booking, to staffer_uuid; times and prices stay. The staffer must work at the booking's location, be active and perform the service (422 on staffer_uuid), and be free at those times (409 slot_unavailable). Services the staffer already has are left as they are.",
  request: { params: BookingPath, ...jsonBody(ChangeStafferBody) },
  responses: changeResponses(
    {
      description:
        "The booking is completed or canceled (`booking_closed`), the staffer is busy then (`slot_unavailable`), the staffer's group session at that start has too few seats left (`session_full`), or another request changed the booking at the same moment (`booking_changed`)",
      codes: ["booking_closed", "slot_unavailable", "session_full", "booking_changed"],
    },
    "staffer_uuid cannot take the service at this location or time, or service_uuid is not on the booking",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    changeBookingStaffer(c.var.deps, bookingId, {
      stafferId: body.staffer_uuid,
      serviceId: body.service_uuid,
    }),
  );
  return c.json(booking, 200);
};

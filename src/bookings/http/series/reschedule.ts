import type { RouteHandler } from "@hono/zod-openapi";
import { rescheduleSeries, type SeriesRescheduleSubject } from "../../series/reschedule";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { jsonBody } from "../../../http/responses";
import { seriesObject } from "../../views/series";
import { seriesChangeResponses } from "./responses";
import { RescheduleSeriesBody, SeriesPath } from "./schema";

const FIELDS: FieldNames<SeriesRescheduleSubject> = {
  start: "reserved_on",
  occurrence: "from_booking_uuid",
};

export const route = defineRoute({
  operationId: "rescheduleSeries",
  keys: "secret",
  method: "put",
  path: "/series/{series_uuid}/reschedule",
  tags: ["Series"],
  summary: "Move a series from one occurrence on",
  description:
    "Moves the occurrence from_booking_uuid to reserved_on and every later open occurrence by the same shift in local wall-clock time in the location's zone (10:00 → 11:00 stays 11:00 local across a DST change), all at once or none. Past, completed and canceled occurrences stay. Staffers stay; resource units are taken afresh. Each occurrence is checked as a single reschedule checks its booking; if any cannot move, the answer is 409 slot_unavailable with `conflicts` (each refused start with up to 5 free starts near it) and nothing is written. The first occurrence's own start in the past, inside the minimum notice or outside working hours is 422 on reserved_on. Reminders move with each occurrence; each gets a booking-rescheduled webhook event; with is_send_notification_on_reschedule the customer gets one booking-rescheduled message for all of them. Staff are not held to the location's change policy. Secret keys only.",
  request: { params: SeriesPath, ...jsonBody(RescheduleSeriesBody) },
  responses: seriesChangeResponses(
    {
      description:
        "An occurrence cannot move (`slot_unavailable`, with `conflicts`), the occurrence named is completed or canceled (`booking_closed`), or another request changed the series or one of its occurrences at the same moment (`booking_changed`), or a package credit paying for a moved occurrence expires before its new start (`package_unavailable`: nothing moves)",
      codes: ["slot_unavailable", "booking_closed", "booking_changed", "package_unavailable"],
    },
    "A field is invalid; from_booking_uuid is not an upcoming occurrence of this series; reserved_on is in the past, inside the minimum notice or outside the staffer's working hours",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { series_uuid: seriesId } = c.req.valid("param");
  const body = c.req.valid("json");
  const changed = await withFields(FIELDS, () =>
    rescheduleSeries(c.var.deps, seriesId, {
      fromBookingId: body.from_booking_uuid,
      start: Date.parse(body.reserved_on),
      notifyOnReschedule: body.is_send_notification_on_reschedule,
    }),
  );
  return c.json({ series: seriesObject(changed.series), bookings: changed.bookings }, 200);
};

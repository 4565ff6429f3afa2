import type { RouteHandler } from "@hono/zod-openapi";
import { cancelSeries } from "../../series/cancel";
import type { OccurrenceSubject } from "../../series/occurrences";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { jsonBody } from "../../../http/responses";
import { seriesObject } from "../../views/series";
import { seriesChangeResponses } from "./responses";
import { CancelSeriesBody, SeriesPath } from "./schema";

const FIELDS: FieldNames<OccurrenceSubject> = { occurrence: "from_booking_uuid" };

export const route = defineRoute({
  operationId: "cancelSeries",
  keys: "secret",
  method: "put",
  path: "/series/{series_uuid}/cancel",
  tags: ["Series"],
  summary: "Cancel a series from one occurrence on",
  description:
    "Cancels every open occurrence of the series from from_booking_uuid on (every upcoming one when it is absent), all at once or none: past, completed and canceled occurrences stay as they are. Their time is freed, their reminders still to go out are canceled, each gets a booking-canceled webhook event, and the customer gets one booking-canceled message for all of them. Staff are not held to the location's cancellation policy. Nothing left to cancel answers the series as it is. Secret keys only (a customer changes one booking at a time).",
  request: { params: SeriesPath, ...jsonBody(CancelSeriesBody) },
  responses: seriesChangeResponses(
    {
      description:
        "Another request changed the series or one of its occurrences at the same moment (`booking_changed`)",
      codes: ["booking_changed"],
    },
    "A field is invalid, or from_booking_uuid is not an occurrence of this series",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { series_uuid: seriesId } = c.req.valid("param");
  const body = c.req.valid("json");
  const changed = await withFields(FIELDS, () =>
    cancelSeries(c.var.deps, seriesId, {
      fromBookingId: body.from_booking_uuid,
      cancelReason: body.cancel_reason,
    }),
  );
  return c.json({ series: seriesObject(changed.series), bookings: changed.bookings }, 200);
};

import { z } from "@hono/zod-openapi";
import type { SeriesRow, SeriesRecord } from "../queries/series";
import { renderBooking } from "./booking";
import type { RenderContext } from "../../http/deps";
import { BookingSchema } from "./booking-schema";

export const SeriesSchema = z
  .object({
    uuid: z.string(),
    rule: z.string().openapi({
      description: "The recurrence rule (RFC 5545 RRULE), written in one canonical order",
      example: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=12",
    }),
    location_uuid: z.string(),
    customer_uuid: z.string(),
    count: z.number().int().openapi({
      description: "Occurrences booked when the series was made (skipped ones not counted)",
    }),
  })
  .openapi("Series");

/** A series and its bookings in start order: GET /series/{uuid} and the series changes answer this. */
export const SeriesWithBookingsSchema = z
  .object({ series: SeriesSchema, bookings: z.array(BookingSchema).max(52) })
  .openapi("SeriesWithBookings");

export type SeriesBody = z.infer<typeof SeriesSchema>;

/** The `series` object of a series response. */
export const seriesObject = (row: SeriesRow): SeriesBody => ({
  uuid: row.id,
  rule: row.rule,
  location_uuid: row.locationId,
  customer_uuid: row.customerId,
  count: row.count,
});

/**
 * `{ series, bookings }` for a series read with `seriesRead` (src/bookings/queries/series.ts):
 * its bookings rendered as booking responses, in start order. `now` decides each
 * booking's policy verdicts.
 */
export function renderSeries(record: SeriesRecord, ctx: RenderContext, now = Date.now()) {
  return {
    series: seriesObject(record.series),
    bookings: record.bookings.map((b) => renderBooking(b, ctx, now)),
  };
}

import { z } from "@hono/zod-openapi";
import type { series } from "../db/schema";
import { type Booking, BookingSchema } from "./booking-schema";

/**
 * A recurring series as the API shows it (`GET /series/{uuid}` and the series
 * changes): the series and its bookings, earliest first. Written by the
 * series-change slice with the shape the series slice's GET uses, so the
 * merge keeps one of the two.
 */
export const SeriesSchema = z
  .object({
    uuid: z.string(),
    rule: z.string().openapi({ example: "FREQ=WEEKLY;INTERVAL=1;COUNT=6" }),
    location_uuid: z.string(),
    customer_uuid: z.string(),
    count: z.number().int().openapi({ description: "Occurrences booked when the series was made" }),
  })
  .openapi("Series");

export const SeriesWithBookingsSchema = z
  .object({
    series: SeriesSchema,
    bookings: z.array(BookingSchema).max(52),
  })
  .openapi("SeriesWithBookings");

export type SeriesWithBookings = z.infer<typeof SeriesWithBookingsSchema>;

export const renderSeries = (
  row: typeof series.$inferSelect,
  bookings: Booking[],
): SeriesWithBookings => ({
  series: {
    uuid: row.id,
    rule: row.rule,
    location_uuid: row.locationId,
    customer_uuid: row.customerId,
    count: row.count,
  },
  bookings,
});

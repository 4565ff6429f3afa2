import { z } from "@hono/zod-openapi";
import type { RangeSubject } from "../../availability/search-range";
import { dateOrInstant, seats, timezone, uuid } from "../../../platform/fields";
import type { FieldNames } from "../../../http/request-fields";

/** `YYYY-MM-DD` (whole days in the location's zone) or an instant (src/platform/instant.ts). */
export const rangeBound = dateOrInstant;

export const MAX_RANGE_DAYS = 62;

/** Both searches (query and body) name the range's end alike. */
export const RANGE_FIELDS: FieldNames<RangeSubject> = { end: "range_end" };

export const TimeSlotsQuery = z.object({
  service_uuid: uuid("service_uuid"),
  staffer_uuid: uuid("staffer_uuid").optional(),
  range_start: rangeBound,
  range_end: rangeBound,
  timezone: timezone.optional(),
});

export const LocationPath = z.object({ location_uuid: uuid("location_uuid") });

const clock = {
  start: z.string().openapi({ example: "09:00" }),
  start_formatted: z.number().int().openapi({ description: "Seconds from local midnight" }),
  end: z.string(),
  end_formatted: z.number().int(),
};

export const TimeSlotsResponse = z
  .object({
    today: z.string(),
    timezone: z.string(),
    currency: z.string(),
    dates: z.array(
      z.object({
        date: z.string(),
        slots: z.array(
          z.object({
            ...clock,
            quantity: z.number().int(),
            price: z.number().int(),
            price_formatted: z.string(),
          }),
        ),
        intervals: z.array(z.object(clock)),
      }),
    ),
  })
  .openapi("TimeSlots");

export const CartServices = z
  .array(
    z.object({
      service_uuid: uuid("service_uuid"),
      staffer_uuid: uuid("staffer_uuid").optional(),
      quantity: seats.optional().openapi({
        description:
          "Seats of a group service (1..capacity, default 1): it fits where that many seats are left, and the price counts each seat",
      }),
    }),
  )
  .min(1, "At least 1 service.")
  .max(10, "At most 10 services.");

export const CartNextBody = z
  .object({ services: CartServices, timezone: timezone.optional() })
  .openapi("CartNextSlot");

export const CartCalendarBody = z
  .object({
    services: CartServices,
    range_start: rangeBound,
    range_end: rangeBound,
    timezone: timezone.optional(),
  })
  .openapi("CartCalendar");

export const CartSlotsResponse = z
  .object({
    data: z.array(
      z.object({
        timezone: z.string(),
        currency: z.string(),
        dates: z.array(
          z.object({
            date: z.string(),
            slot: z.object({
              ...clock,
              price: z.number().int(),
              price_formatted: z.string(),
              staffers: z.array(z.object({ uuid: z.string() })),
            }),
          }),
        ),
      }),
    ),
  })
  .openapi("CartSlots");

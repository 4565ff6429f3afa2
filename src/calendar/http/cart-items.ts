import { z } from "@hono/zod-openapi";
import { seats, instant, uuid } from "../../platform/fields";
import type { ItemSubject } from "../../platform/rules/problems";
import type { FieldNames } from "../../http/request-fields";

// A reservation holds what a cart books: both bodies carry these items, and the calendar (under
// bookings) owns them, so the cart's schema extends the reservation's, not the other way round.

export const CartService = z.object({
  service_uuid: uuid("service_uuid"),
  staffer_uuid: uuid("staffer_uuid").optional(),
  quantity: seats.optional(),
});

/** A cart's items (also a reservation's): up to 10 starts of up to 10 services each. */
export const CartItems = z
  .array(
    z.object({
      datetime_start: instant,
      services: z.array(CartService).min(1, "At least 1 service.").max(10, "At most 10 services."),
    }),
  )
  .min(1, "At least 1 item.")
  .max(10, "At most 10 items.");

/** Bodies with `items` (a cart, a reservation): each item and each of its services by position. */
export const ITEM_FIELDS: FieldNames<ItemSubject> = {
  location: "location_uuid",
  start: ({ item }) => `items.${item}.datetime_start`,
  services: ({ item }) => `items.${item}.services`,
  service: ({ item, service }) => `items.${item}.services.${service}.service_uuid`,
  staffer: ({ item, service }) => `items.${item}.services.${service}.staffer_uuid`,
  quantity: ({ item, service }) => `items.${item}.services.${service}.quantity`,
};

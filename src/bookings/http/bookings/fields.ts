import type { BookingSubject } from "../../create";
import type { ItemSubject } from "../../../platform/rules/problems";
import type { FieldNames } from "../../../http/request-fields";

/** Bodies with `items` (a cart, a reservation): each item and each of its services by position. */
export const ITEM_FIELDS: FieldNames<ItemSubject> = {
  location: "location_uuid",
  start: ({ item }) => `items.${item}.datetime_start`,
  services: ({ item }) => `items.${item}.services`,
  service: ({ item, service }) => `items.${item}.services.${service}.service_uuid`,
  staffer: ({ item, service }) => `items.${item}.services.${service}.staffer_uuid`,
  quantity: ({ item, service }) => `items.${item}.services.${service}.quantity`,
};

/** What every booking body names alike: the customer, the form's fields, the reservation. */
const CUSTOMER_FIELDS = {
  phone: "customer_phone",
  form: ({ field }) => field,
  reservation: "reservation_uuid",
} satisfies Partial<FieldNames<BookingSubject>>;

/** POST /bookings/cart. */
export const CART_FIELDS: FieldNames<BookingSubject> = {
  ...ITEM_FIELDS,
  ...CUSTOMER_FIELDS,
  items: "items",
};

/**
 * POST /bookings: one item of one service, at the top level of the body. A
 * reservation holding more than that is reported on `reservation_uuid`.
 */
export const SINGLE_BOOKING_FIELDS: FieldNames<BookingSubject> = {
  ...CUSTOMER_FIELDS,
  location: "location_uuid",
  start: "reserved_on",
  services: "service_uuid",
  service: "service_uuid",
  staffer: "staffer_uuid",
  quantity: "quantity",
  items: "reservation_uuid",
};

import type { BookingSubject, CreditBookingSubject } from "../../create";
import { ITEM_FIELDS } from "../../../calendar/http/cart-items";
import type { FieldNames } from "../../../http/request-fields";

/** What every booking body names alike: the customer, the form's fields, the reservation. */
const CUSTOMER_FIELDS = {
  phone: "customer_phone",
  form: ({ field }) => field,
  reservation: "reservation_uuid",
} satisfies Partial<FieldNames<BookingSubject>>;

/** POST /bookings/cart. */
export const CART_FIELDS: FieldNames<CreditBookingSubject> = {
  ...ITEM_FIELDS,
  ...CUSTOMER_FIELDS,
  items: "items",
  customer_package: ({ item, service }) =>
    `items.${item}.services.${service}.customer_package_uuid`,
};

/**
 * POST /bookings: one item of one service, at the top level of the body. A
 * reservation holding more than that is reported on `reservation_uuid`.
 */
export const SINGLE_BOOKING_FIELDS: FieldNames<CreditBookingSubject> = {
  ...CUSTOMER_FIELDS,
  location: "location_uuid",
  start: "reserved_on",
  services: "service_uuid",
  service: "service_uuid",
  staffer: "staffer_uuid",
  quantity: "quantity",
  items: "reservation_uuid",
  customer_package: "customer_package_uuid",
};

import { and, eq } from "drizzle-orm";
import { bookings, customers, locations } from "../schema";

/**
 * A location's address columns, for a select: spread beside the other columns a
 * read wants (`addressOf` turns them into the API's address).
 */
export const locationAddressColumns = {
  addressLine1: locations.addressLine1,
  addressLine2: locations.addressLine2,
  addressCity: locations.addressCity,
  addressPostalCode: locations.addressPostalCode,
  addressCountry: locations.addressCountry,
};

/**
 * The join from a booking to its customer, in the booking's workspace: whose the
 * booking is now (staff may have handed it to someone else since it was made).
 */
export const customerOfBooking = and(
  eq(customers.id, bookings.customerId),
  eq(customers.workspaceId, bookings.workspaceId),
);

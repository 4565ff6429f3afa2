import type { MiddlewareHandler } from "hono";
import type { RwgEnv } from "./env";
import { batchAvailabilityLookupMethod } from "./batch-availability-lookup";
import { checkAvailabilityMethod } from "./check-availability";
import { createBookingMethod } from "./create-booking";
import { updateBookingMethod } from "./update-booking";
import { getBookingStatusMethod } from "./get-booking-status";
import { listBookingsMethod } from "./list-bookings";

/** The booking server's POST methods, by the name Google's path gives them. */
export const METHODS: Record<string, MiddlewareHandler<RwgEnv>> = {
  BatchAvailabilityLookup: batchAvailabilityLookupMethod,
  CheckAvailability: checkAvailabilityMethod,
  CreateBooking: createBookingMethod,
  UpdateBooking: updateBookingMethod,
  GetBookingStatus: getBookingStatusMethod,
  ListBookings: listBookingsMethod,
};

import type { Context } from "hono";
import { updateGoogleBooking } from "../update-booking";
import { UpdateBookingRequest } from "../wire/requests";
import { protoBody } from "./body";
import type { RwgEnv } from "./env";

/** UpdateBooking: cancels (status CANCELED) or moves (a new slot) one of Google's bookings. */
export const updateBookingMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, UpdateBookingRequest);
  return c.json(await updateGoogleBooking(c.var.deps, req), 200);
};

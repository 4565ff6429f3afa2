import type { Context } from "hono";
import { googleBookingStatus } from "../booking-status";
import { GetBookingStatusRequest } from "../wire/requests";
import { protoBody } from "./body";
import { missing } from "../wire/invalid";
import type { RwgEnv } from "./env";

/** GetBookingStatus: one of Google's bookings' status and prepayment, as they are now. */
export const getBookingStatusMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, GetBookingStatusRequest);
  if (!req.booking_id) throw missing("booking_id");
  return c.json(await googleBookingStatus(c.var.deps.scope, req.booking_id), 200);
};

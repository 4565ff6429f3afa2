import type { Context } from "hono";
import { createBooking } from "../create-booking";
import { CreateBookingRequest } from "../wire/requests";
import { protoBody } from "./body";
import type { RwgEnv } from "./env";

/**
 * CreateBooking: the answer's text as the use-case gives it, untouched (a replay must be the
 * same bytes as the first answer, which is stored as text).
 */
export const createBookingMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, CreateBookingRequest);
  const text = await createBooking(c.var.deps, c.var.workspace, req);
  return c.body(text, 200, { "content-type": "application/json" });
};

import type { Context } from "hono";
import { googleUserBookings } from "../list-bookings";
import { ListBookingsRequest } from "../wire/requests";
import { protoBody } from "./body";
import { missing } from "../wire/invalid";
import type { RwgEnv } from "./env";

/** ListBookings: a Google user's bookings with this workspace (none: an empty list). */
export const listBookingsMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, ListBookingsRequest);
  if (!req.user_id) throw missing("user_id");
  return c.json(await googleUserBookings(c.var.deps.scope, req.user_id), 200);
};

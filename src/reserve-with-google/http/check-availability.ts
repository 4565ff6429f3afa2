import type { Context } from "hono";
import { checkAvailability } from "../availability";
import { CheckAvailabilityRequest } from "../wire/requests";
import { protoBody } from "./body";
import type { RwgEnv } from "./env";

/** CheckAvailability: how many bookings one slot could still take. */
export const checkAvailabilityMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, CheckAvailabilityRequest);
  return c.json(await checkAvailability(c.var.deps.scope, req), 200);
};

import type { Context } from "hono";
import { batchAvailabilityLookup } from "../availability";
import { BatchAvailabilityLookupRequest } from "../wire/requests";
import { protoBody } from "./body";
import type { RwgEnv } from "./env";

/** BatchAvailabilityLookup: whether each of up to 500 slot times of one merchant is available. */
export const batchAvailabilityLookupMethod = async (c: Context<RwgEnv>) => {
  const req = await protoBody(c, BatchAvailabilityLookupRequest);
  return c.json(await batchAvailabilityLookup(c.var.deps.scope, req), 200);
};

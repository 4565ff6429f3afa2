import type { Context } from "hono";
import type { BookingDeps } from "../../../bookings/deps";
import type { PublicEnv } from "../../../env";
import { deferAfterResponse } from "../../defer";

/** A booking use-case's dependencies, from what the middleware put on the request. */
export const bookingDeps = (c: Context<PublicEnv>): BookingDeps => ({
  scope: c.var.scope,
  env: c.env,
  render: c.var.render,
  defer: deferAfterResponse(c),
  staff: c.var.apiKey.kind === "secret",
});

import type { Context } from "hono";
import type { BookingDeps } from "../../../bookings/deps";
import type { Caller } from "../../../domain/booking-rules";
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

/** A publishable key is a customer (the widget, or anyone holding the page's key); a secret key is staff. */
export const callerOf = (c: Context<PublicEnv>): Caller =>
  c.var.apiKey.kind === "publishable" ? "customer" : "staff";

import { createRoute, type z } from "@hono/zod-openapi";
import type { BookingDeps } from "../../../bookings/deps";
import { ErrorBodySchema } from "../../../lib/error-body";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { type Booking, BookingSchema } from "../../../views/booking-schema";
import { bookingDeps } from "./deps";
import { BookingPath } from "./schema";

export interface BookingChange<B extends z.ZodType> {
  method: "put" | "post";
  path: string;
  summary: string;
  body: B;
  run: (deps: BookingDeps, bookingId: string, body: z.infer<B>) => Promise<Booking>;
}

export const bookingChange =
  <B extends z.ZodType>(change: BookingChange<B>) =>
  (router: Router) => {
    const route = createRoute({
      method: change.method,
      path: change.path,
      tags: ["Bookings"],
      summary: change.summary,
      request: { params: BookingPath, ...jsonBody(change.body) },
      responses: {
        200: json(BookingSchema, "The booking as it now is"),
        409: json(ErrorBodySchema, "Closed booking or slot taken"),
        ...errorResponses,
      },
    });
    // The route validated both parts before this runs; the generic body type is
    // beyond what the route's inferred context can carry, hence the narrow cast.
    router.openapi(route, async (c) => {
      const valid = c.req.valid.bind(c.req) as unknown as (target: "param" | "json") => unknown;
      const { booking_uuid: id } = valid("param") as z.infer<typeof BookingPath>;
      return c.json(await change.run(bookingDeps(c), id, valid("json") as z.infer<B>), 200);
    });
  };

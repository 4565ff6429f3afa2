import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { withAlternatives } from "../../../availability/alternatives";
import type { PublicEnv } from "../../../env";
import { createReservation } from "../../../reservations/create";
import {
  authErrors,
  calendarWriteErrors,
  conflictErrors,
  json,
  jsonBody,
} from "../../../lib/responses";
import { CreateReservationBody, DEFAULT_TTL_SECONDS, ReservationSchema } from "./schema";
import { deferAfterResponse } from "../../defer";

export const route = createRoute({
  method: "post",
  path: "/reservations",
  tags: ["Reservations"],
  summary: "Hold time while the customer fills in the booking form",
  description:
    "Items exactly as a cart booking: services back to back from each item's start, a service without staffer_uuid auto-allocated (the answer names the staffer). Until expires_at (ttl_seconds from now, 60–900, default 300) the time is busy for everyone else: time-slot search hides it, and bookings, carts, reschedules, blocked spots and other reservations over it get 409 slot_unavailable. Book it with reservation_uuid on POST /bookings or POST /bookings/cart; release it early with DELETE. A reservation is not an event: no webhook.",
  request: jsonBody(CreateReservationBody),
  responses: {
    201: json(ReservationSchema, "Held"),
    ...authErrors,
    ...calendarWriteErrors,
    ...conflictErrors("A time is taken (`slot_unavailable`, with `alternatives`)", [
      "slot_unavailable",
    ]),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const items = body.items.map((item, i) => ({
    start: Date.parse(item.datetime_start),
    services: item.services.map((s) => ({ serviceId: s.service_uuid, stafferId: s.staffer_uuid })),
    timeField: `items.${i}.datetime_start`,
  }));
  try {
    const reservation = await createReservation(
      { scope: c.var.scope, env: c.env, defer: deferAfterResponse(c) },
      {
        locationId: body.location_uuid,
        items,
        ttlSeconds: body.ttl_seconds ?? DEFAULT_TTL_SECONDS,
        fields: {
          location: "location_uuid",
          service: (i, j) => `items.${i}.services.${j}.service_uuid`,
          staffer: (i, j) => `items.${i}.services.${j}.staffer_uuid`,
        },
      },
    );
    return c.json(reservation, 201);
  } catch (error) {
    throw await withAlternatives(c.var.scope, error, { locationId: body.location_uuid, items });
  }
};

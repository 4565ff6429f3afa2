import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { withAlternatives } from "../../availability/alternatives";
import type { PublicEnv } from "../../../http/env";
import { createReservation, type ReservationSubject } from "../../holds/create";
import {
  authErrors,
  calendarWriteErrors,
  conflictErrors,
  errorCodes,
  json,
  jsonBody,
} from "../../../http/responses";
import { PUBLIC_HOLDS } from "../../../platform/rules/public-holds";
import { CreateReservationBody, DEFAULT_TTL_SECONDS, ReservationSchema } from "./schema";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { ITEM_FIELDS } from "../cart-items";

/** The body's names for what a hold can be wrong about: a cart's items, and its ttl. */
const RESERVATION_FIELDS: FieldNames<ReservationSubject> = { ...ITEM_FIELDS, ttl: "ttl_seconds" };

export const route = defineRoute({
  operationId: "createReservation",
  keys: "publishable",
  method: "post",
  path: "/reservations",
  tags: ["Reservations"],
  summary: "Hold time while the customer fills in the booking form",
  description:
    "Items exactly as a cart booking: services back to back from each item's start, a service without staffer_uuid auto-allocated (the answer names the staffer). Until expires_at (ttl_seconds from now, 60–900, default 300) the time is busy for everyone else: time-slot search hides it, and bookings, carts, reschedules, blocked spots and other reservations over it get 409 slot_unavailable. Book it with reservation_uuid on POST /bookings or POST /bookings/cart; release it early with DELETE. A reservation is not an event: no webhook.\n\n" +
    `With a publishable key (a booking widget): at most ${PUBLIC_HOLDS.services} services and ${PUBLIC_HOLDS.staffMinutes / 60} hours of staff time (the sum of the services' durations) in one reservation, ttl_seconds at most ${PUBLIC_HOLDS.ttlSeconds} (422 beyond either); at most ${PUBLIC_HOLDS.perHolder} live reservations per key and client address (429 \`too_many_holds\`, Retry-After until the first of them expires). Staff win over such a hold: a secret key's booking or change, a blocked spot or a resource block over it succeeds and ends the whole reservation (GET 404, booking it 409 \`reservation_expired\`). A secret key's reservation has none of these bounds and is never taken over.`,
  request: jsonBody(CreateReservationBody),
  responses: {
    201: json(ReservationSchema, "Held"),
    ...authErrors,
    ...calendarWriteErrors,
    429: errorCodes(
      "Rate limited (`rate_limited`), or a publishable key's visitor already holds the most live reservations (`too_many_holds`); see Retry-After",
      ["rate_limited", "too_many_holds"],
    ),
    ...conflictErrors(
      "A time is taken (`slot_unavailable`, with `alternatives`), or a group session has fewer seats left than a `quantity` (`session_full`)",
      ["slot_unavailable", "session_full"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const items = body.items.map((item) => ({
    start: Date.parse(item.datetime_start),
    services: item.services.map((s) => ({
      serviceId: s.service_uuid,
      stafferId: s.staffer_uuid,
      quantity: s.quantity,
    })),
  }));
  const { visitor, caller } = c.var.deps;
  const publishable = visitor ? { holder: visitor } : undefined;
  try {
    const reservation = await withFields(RESERVATION_FIELDS, () =>
      createReservation(c.var.deps, {
        locationId: body.location_uuid,
        items,
        ttlSeconds: body.ttl_seconds ?? DEFAULT_TTL_SECONDS,
        currency: c.var.deps.render.currency,
        publishable,
        widgetOnly: caller === "customer",
      }),
    );
    return c.json(reservation, 201);
  } catch (error) {
    throw await withAlternatives(c.var.deps.scope, error, {
      locationId: body.location_uuid,
      items,
    });
  }
};

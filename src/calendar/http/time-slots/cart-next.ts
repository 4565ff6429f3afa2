import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { nextCartFit } from "../../rules";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { loadCart, renderCartDays } from "./cart";
import { CartNextBody, CartSlotsResponse, LocationPath } from "./schema";

/** How far ahead "next" looks (docs/decisions.md, "Availability"). */
const HORIZON_DAYS = 90;

export const route = defineRoute({
  operationId: "findNextCartDate",
  keys: "publishable",
  method: "post",
  path: "/locations/{location_uuid}/time-slots/cart/next",
  tags: ["Time slots"],
  summary: "Nearest date on which a cart of services fits",
  description:
    "Services run back to back in the given order (each after the previous one's buffer); a service without staffer_uuid is auto-allocated (fewest booked minutes that day, ties by uuid). Scans at most 90 days from today; `data` is empty when nothing fits.",
  request: { params: LocationPath, ...jsonBody(CartNextBody) },
  responses: {
    200: json(CartSlotsResponse, "The first fitting date"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("location"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { location_uuid: locationId } = c.req.valid("param");
  const body = c.req.valid("json");
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const horizon = new Date(now + (HORIZON_DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
  const { inputs, cart, staffers, price } = await loadCart(c, {
    locationId,
    services: body.services,
    fromDate: today,
    toDate: horizon,
  });
  const fit = nextCartFit(
    { location: inputs.rules, services: cart, staffers, resources: inputs.resources, now },
    HORIZON_DAYS,
  );
  return c.json(
    renderCartDays(c, fit ? [fit] : [], price, body.timezone ?? inputs.rules.timezone),
    200,
  );
};

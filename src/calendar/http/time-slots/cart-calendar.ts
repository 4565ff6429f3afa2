import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { parseRange } from "../../availability/search-range";
import { withFields } from "../../../http/request-fields";
import { firstCartFitPerDay } from "../../rules";
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
import {
  CartCalendarBody,
  CartSlotsResponse,
  LocationPath,
  MAX_RANGE_DAYS,
  RANGE_FIELDS,
} from "./schema";

export const route = defineRoute({
  operationId: "listCartTimeSlots",
  keys: "publishable",
  method: "post",
  path: "/locations/{location_uuid}/time-slots/cart",
  tags: ["Time slots"],
  summary: "Cart calendar: every date in a range on which the cart fits, with its first slot",
  request: { params: LocationPath, ...jsonBody(CartCalendarBody) },
  responses: {
    200: json(CartSlotsResponse, "Fitting dates"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("location"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { location_uuid: locationId } = c.req.valid("param");
  const body = c.req.valid("json");
  const range = await withFields(RANGE_FIELDS, () =>
    parseRange(body.range_start, body.range_end, MAX_RANGE_DAYS),
  );
  const { inputs, cart, staffers, price } = await loadCart(c, {
    locationId,
    services: body.services,
    fromDate: range.fromDate,
    // The last day's cart may run past midnight: load its busy time too.
    toDate: range.toDate,
  });
  const fits = firstCartFitPerDay({
    location: inputs.rules,
    services: cart,
    staffers,
    resources: inputs.resources,
    fromDate: range.fromDate,
    toDate: range.toDate,
    now: Date.now(),
  }).filter(
    (f) =>
      (range.fromInstant === null || f.start >= range.fromInstant) &&
      (range.toInstant === null || f.start <= range.toInstant),
  );
  return c.json(renderCartDays(c, fits, price, body.timezone ?? inputs.rules.timezone), 200);
};

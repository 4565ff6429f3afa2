import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { engineInputs } from "../../availability/engine-input";
import { parseRange } from "../../availability/search-range";
import { withFields } from "../../../http/request-fields";
import { loadAvailability } from "../../queries/availability";
import { instantToLocalDate, mergeSpans, renderDays, searchSlots, sessionAskOf } from "../../rules";
import { bufferOf, effectivePrice } from "../../../catalogue/rules/service-terms";
import { formatMoney } from "../../../platform/rules/money";
import type { PublicEnv } from "../../../http/env";
import { fieldError, notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import {
  LocationPath,
  MAX_RANGE_DAYS,
  RANGE_FIELDS,
  TimeSlotsQuery,
  TimeSlotsResponse,
} from "./schema";

export const route = defineRoute({
  operationId: "listTimeSlots",
  keys: "publishable",
  method: "get",
  path: "/locations/{location_uuid}/time-slots",
  tags: ["Time slots"],
  summary: "Available time slots of a service",
  description:
    "range_start and range_end are dates YYYY-MM-DD (whole days in the location's zone, inclusive) or ISO 8601 instants; at most 62 days. `timezone` renders the times on the client's clock (dates then follow that zone). quantity is the number of free staff (1 when staffer_uuid is given); for a group service (capacity > 1) it is the seats left at that start: open sessions' free seats plus the capacity of each new session a free staffer could start (a full session is not listed).",
  request: { params: LocationPath, query: TimeSlotsQuery },
  responses: {
    200: json(TimeSlotsResponse, "Slots per date"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("location"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { location_uuid: locationId } = c.req.valid("param");
  const q = c.req.valid("query");
  const ws = c.var.workspace;
  const range = await withFields(RANGE_FIELDS, () =>
    parseRange(q.range_start, q.range_end, MAX_RANGE_DAYS),
  );
  const loaded = await loadAvailability(c.var.deps.scope, {
    locationId,
    serviceIds: [q.service_uuid],
    stafferIds: q.staffer_uuid ? [q.staffer_uuid] : undefined,
    fromDate: range.fromDate,
    toDate: range.toDate,
    widgetOnly: c.var.deps.caller === "customer",
  });
  const inputs = engineInputs(loaded);
  if (!inputs) throw notFound("Location");
  const service = loaded.services[0];
  if (!service) throw fieldError("service_uuid", "Unknown service.");
  if (!loaded.offeredAt.has(service.id))
    throw fieldError("service_uuid", "The service is not offered at this location.");
  const performers = inputs.performersOf(service.id);
  if (q.staffer_uuid && performers.length === 0) {
    throw fieldError(
      "staffer_uuid",
      "The staffer cannot be booked for this service at this location.",
    );
  }

  const tz = inputs.rules.timezone;
  const now = Date.now();
  const fromDate =
    range.fromInstant === null ? range.fromDate : instantToLocalDate(range.fromInstant, tz);
  const toDate = range.toInstant === null ? range.toDate : instantToLocalDate(range.toInstant, tz);
  const days = searchSlots({
    location: inputs.rules,
    staffers: performers,
    durationMin: service.duration,
    bufferMin: bufferOf(service),
    resources: inputs.requiredBy(service.id),
    session: sessionAskOf(service),
    fromDate,
    toDate,
    now,
  }).map((day) => {
    // Instant bounds cut inside the first and last day; intervals follow the slots that remain.
    const slots = day.slots.filter(
      (s) =>
        (range.fromInstant === null || s.start >= range.fromInstant) &&
        (range.toInstant === null || s.start <= range.toInstant),
    );
    return {
      ...day,
      slots,
      intervals: mergeSpans(slots.map((s) => ({ start: s.start, end: s.end }))),
    };
  });

  const display = q.timezone ?? tz;
  const price = effectivePrice(service);
  const priceFormatted = formatMoney(price, ws.currency, ws.locale);
  return c.json(
    {
      today: instantToLocalDate(now, display),
      timezone: display,
      currency: ws.currency,
      dates: renderDays(days, display).map((d) => ({
        date: d.date,
        slots: d.slots.map((s) => ({
          start: s.start,
          start_formatted: s.start_formatted,
          end: s.end,
          end_formatted: s.end_formatted,
          // Bookings still possible at that start: free staffers, capped by free resource units.
          quantity: s.quantity,
          price,
          price_formatted: priceFormatted,
        })),
        intervals: d.intervals,
      })),
    },
    200,
  );
};

import type { z } from "@hono/zod-openapi";
import type { Scope } from "../db/scope";
import { engineInputs } from "../calendar/availability/engine-input";
import { loadAvailability } from "../calendar/queries/availability";
import { instantToLocalDate, searchSlots, sessionAskOf } from "../calendar/rules";
import { bufferOf } from "../catalogue/rules/service-terms";
import { UUID } from "../platform/rules/uuid";
import { invalidArgument, missing } from "./wire/invalid";
import { bookableThroughGoogle } from "./rules/bookable";
import {
  MAX_SPAN_DAYS,
  matchSlot,
  readWindow,
  searchable,
  searchesOf,
  type SlotAsk,
} from "./rules/slot-match";
import { slotOut, slotTimeOut } from "./views/slot";
import type { BatchAvailabilityLookupRequest, CheckAvailabilityRequest } from "./wire/requests";
import type { BatchAvailabilityLookupResponse, CheckAvailabilityResponse } from "./wire/responses";

/** The distinct services one lookup may ask about (a location offers far fewer to Google). */
const MAX_SERVICES = 100;

const unknown = (field: string, what: string) => invalidArgument(field, `Unknown ${what}.`);

/**
 * How many bookings each asked slot could still take at the merchant (a location), as the
 * public time-slots search counts them for a customer (widget-only services and staff, the
 * grid, notice, busy time, resources, a group service's seats). One D1 read batch, whatever
 * the asks: every service and the whole span of days at once. `offered` holds the services
 * a customer may book at the location; an ask of another one counts 0, as does one of a
 * service Google may not book (`bookableThroughGoogle`) or of a staffer who does not perform
 * the service there.
 */
async function countAvailable(
  scope: Scope,
  merchantField: string,
  merchantId: string,
  asks: readonly SlotAsk[],
  now: number,
): Promise<{ counts: number[]; offered: Set<string> }> {
  const inReach = asks.map((a, index) => ({ ...a, index })).filter((a) => searchable(a, now));
  const window = readWindow(
    inReach.map((a) => a.startSec),
    now,
  );
  if (!window) {
    const message = `The slots asked about may span at most ${MAX_SPAN_DAYS} days.`;
    throw invalidArgument("slot_time", message);
  }
  // Only ids that can be a service's are looked up, and at most MAX_SERVICES of them: the
  // list is one bound parameter of several statements (a D1 statement stays small).
  const serviceIds = [...new Set(asks.map((a) => a.serviceId))].filter((id) => UUID.test(id));
  if (serviceIds.length > MAX_SERVICES) {
    const message = `The slots asked about may name at most ${MAX_SERVICES} services.`;
    throw invalidArgument("slot_time", message);
  }
  const loaded = await loadAvailability(scope, {
    locationId: merchantId,
    serviceIds,
    fromDate: window.fromDate,
    toDate: window.toDate,
    widgetOnly: true,
  });
  const inputs = engineInputs(loaded);
  // Another workspace's location is no more known than one that never existed.
  if (!inputs) throw unknown(merchantField, "merchant");
  const services = new Map(
    loaded.services.filter((s) => loaded.offeredAt.has(s.id)).map((s) => [s.id, s]),
  );
  const counts = asks.map(() => 0);
  const tz = inputs.rules.timezone;
  const searches = searchesOf(
    inReach.filter((a) => services.has(a.serviceId)),
    (ms) => instantToLocalDate(ms, tz),
  );
  for (const search of searches) {
    const service = services.get(search.serviceId);
    // One that takes money online first is left out of the feeds and refused at CreateBooking.
    if (!service || !bookableThroughGoogle(service)) continue;
    // A staffer asked for is searched alone, as the time slots' staffer_uuid: 1 or 0.
    const staffers = inputs
      .performersOf(service.id)
      .filter((p) => search.staffId === "" || p.id === search.staffId);
    if (staffers.length === 0) continue;
    const slots = searchSlots({
      location: inputs.rules,
      staffers,
      durationMin: service.duration,
      bufferMin: bufferOf(service),
      resources: inputs.requiredBy(service.id),
      session: sessionAskOf(service),
      fromDate: search.date,
      toDate: search.date,
      now,
    }).flatMap((day) => day.slots);
    for (const ask of search.asks) counts[ask.index] = matchSlot(slots, ask, service.duration);
  }
  return { counts, offered: new Set(services.keys()) };
}

/** CheckAvailability: the bookings still possible in one slot (0 when it is not a slot). */
export async function checkAvailability(
  scope: Scope,
  req: z.output<typeof CheckAvailabilityRequest>,
  now = Date.now(),
): Promise<CheckAvailabilityResponse> {
  const slot = req.slot;
  if (!slot) throw missing("slot");
  if (!slot.merchant_id) throw missing("slot.merchant_id");
  if (!slot.service_id) throw missing("slot.service_id");
  if (!slot.start_sec) throw missing("slot.start_sec");
  const ask: SlotAsk = {
    serviceId: slot.service_id,
    startSec: slot.start_sec,
    durationSec: slot.duration_sec,
    staffId: slot.resources?.staff_id ?? "",
  };
  const { counts, offered } = await countAvailable(
    scope,
    "slot.merchant_id",
    slot.merchant_id,
    [ask],
    now,
  );
  if (!offered.has(ask.serviceId)) throw unknown("slot.service_id", "service");
  return { slot: slotOut(slot), count_available: counts[0] ?? 0 };
}

/**
 * BatchAvailabilityLookup: one answer per slot time, in the order asked. A slot time of a
 * service or staffer we do not know is just unavailable (the others are still answered).
 */
export async function batchAvailabilityLookup(
  scope: Scope,
  req: z.output<typeof BatchAvailabilityLookupRequest>,
  now = Date.now(),
): Promise<BatchAvailabilityLookupResponse> {
  if (!req.merchant_id) throw missing("merchant_id");
  const asks = req.slot_time.map((t, i): SlotAsk => {
    if (!t.service_id) throw missing(`slot_time.${i}.service_id`);
    if (!t.start_sec) throw missing(`slot_time.${i}.start_sec`);
    return {
      serviceId: t.service_id,
      startSec: t.start_sec,
      durationSec: t.duration_sec,
      staffId: t.resource_ids?.staff_id ?? "",
    };
  });
  const { counts } = await countAvailable(scope, "merchant_id", req.merchant_id, asks, now);
  return {
    slot_time_availability: req.slot_time.map((t, i) => ({
      slot_time: slotTimeOut(t),
      available: (counts[i] ?? 0) > 0,
    })),
  };
}

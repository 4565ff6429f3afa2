import { loadAvailability, shiftDate } from "../queries/availability";
import type { Scope } from "../../db/scope";
import { type CartService, findCartStart, nearestStarts, sessionAskOf } from "../rules";
import { bufferOf } from "../../catalogue/rules/service-terms";
import { toIso, utcDate } from "../../platform/clock";
import { type Alternative, ApiError } from "../../platform/errors";
import { log } from "../../platform/log";
import { engineInputs } from "./engine-input";

/** Days either side of the refused start that alternatives are looked for in. */
const DAYS = 7;
const LIMIT = 5;

export interface ConflictQuery {
  locationId: string;
  /** What was asked for; alternatives are for the first item that does not fit now. */
  items: {
    start: number;
    services: {
      serviceId: string;
      stafferId?: string | undefined;
      quantity?: number | undefined;
    }[];
  }[];
  /** A booking being moved keeps its shape: each service's offset from the start. */
  offsetsMs?: number[];
  /** Busy time that is the request's own (a booking being moved). */
  ignoreEntries?: ReadonlySet<string>;
}

/**
 * Adds `alternatives` to a 409 `slot_unavailable` (or `session_full`, a
 * group session with too few seats left): up to 5 free starts near
 * the refused one, from a fresh read of D1 (one round trip, on this path
 * only). Any other error passes through; so does this one, bare, when the
 * alternatives cannot be computed.
 */
export async function withAlternatives(
  scope: Scope,
  error: unknown,
  query: ConflictQuery | undefined,
): Promise<unknown> {
  if (!(error instanceof ApiError) || !query) return error;
  if (error.code !== "slot_unavailable" && error.code !== "session_full") return error;
  try {
    const alternatives = await findAlternatives(scope, query);
    return new ApiError(error.code, error.message, { alternatives });
  } catch (failure) {
    log("warn", "alternatives failed", { error: failure });
    return error;
  }
}

export async function findAlternatives(scope: Scope, query: ConflictQuery): Promise<Alternative[]> {
  const starts = query.items.map((i) => i.start);
  const serviceIds = [...new Set(query.items.flatMap((i) => i.services.map((s) => s.serviceId)))];
  const loaded = await loadAvailability(scope, {
    locationId: query.locationId,
    serviceIds,
    fromDate: shiftDate(utcDate(Math.min(...starts)), -DAYS - 1),
    toDate: shiftDate(utcDate(Math.max(...starts)), DAYS + 2),
  });
  const inputs = engineInputs(
    loaded,
    query.ignoreEntries ? { ignoreEntries: query.ignoreEntries } : {},
  );
  if (!inputs) return [];
  const byId = new Map(loaded.services.map((s) => [s.id, s]));
  const staffers = [...inputs.calendars.values()];
  const now = Date.now();

  const cartOf = (item: ConflictQuery["items"][number]): CartService[] | null => {
    const cart: CartService[] = [];
    for (const s of item.services) {
      const row = byId.get(s.serviceId);
      if (!row || !loaded.offeredAt.has(row.id)) return null;
      cart.push({
        durationMin: row.duration,
        bufferMin: bufferOf(row),
        stafferIds: s.stafferId ? [s.stafferId] : inputs.performersOf(row.id).map((p) => p.id),
        resourceIds: inputs.resourcesOf(row.id),
        session: sessionAskOf(row, s.quantity),
      });
    }
    return cart;
  };
  const carts = query.items.map((item) => ({ item, cart: cartOf(item) }));
  // The item that is taken as D1 stands now; the first one when the refusal came from a write in flight.
  const refused =
    carts.find(
      ({ item, cart }) =>
        cart &&
        !query.offsetsMs &&
        !findCartStart({
          location: inputs.rules,
          services: cart,
          staffers,
          resources: inputs.resources,
          start: item.start,
          now,
        }),
    ) ?? carts[0];
  if (!refused?.cart) return [];
  return nearestStarts({
    location: inputs.rules,
    staffers,
    services: refused.cart,
    resources: inputs.resources,
    ...(query.offsetsMs ? { offsetsMs: query.offsetsMs } : {}),
    around: refused.item.start,
    now,
    limit: LIMIT,
    days: DAYS,
  }).map((a) => ({ start: toIso(a.start), staffer_uuid: a.stafferId }));
}

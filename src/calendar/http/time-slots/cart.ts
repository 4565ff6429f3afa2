import type { Context } from "hono";
import { engineInputs } from "../../availability/engine-input";
import { loadAvailability } from "../../queries/availability";
import { type CartDay, type CartService, renderDays, sessionAskOf } from "../../rules";
import { bufferOf, effectivePrice } from "../../../catalogue/rules/service-terms";
import { formatMoney } from "../../../platform/rules/money";
import type { PublicEnv } from "../../../http/env";
import { notFound, validationError } from "../../../platform/errors";

export interface CartRequest {
  locationId: string;
  services: {
    service_uuid: string;
    staffer_uuid?: string | undefined;
    quantity?: number | undefined;
  }[];
  fromDate: string;
  toDate: string;
  timezone?: string | undefined;
}

/** Loads a cart's services and staff and turns them into the engine's cart input (1 D1 round trip). */
export async function loadCart(c: Context<PublicEnv>, req: CartRequest) {
  const serviceIds = [...new Set(req.services.map((s) => s.service_uuid))];
  const loaded = await loadAvailability(c.var.deps.scope, {
    locationId: req.locationId,
    serviceIds,
    fromDate: req.fromDate,
    toDate: req.toDate,
    widgetOnly: c.var.deps.caller === "customer",
  });
  const inputs = engineInputs(loaded);
  if (!inputs) throw notFound("Location");
  const byId = new Map(loaded.services.map((s) => [s.id, s]));
  const problems: Record<string, string[]> = {};
  const cart: CartService[] = [];
  let price = 0;
  req.services.forEach((s, i) => {
    const row = byId.get(s.service_uuid);
    if (!row || !loaded.offeredAt.has(s.service_uuid)) {
      problems[`services.${i}.service_uuid`] = [
        "Unknown service, or not offered at this location.",
      ];
      return;
    }
    const performers = inputs.performersOf(row.id).map((p) => p.id);
    if (s.staffer_uuid && !performers.includes(s.staffer_uuid)) {
      problems[`services.${i}.staffer_uuid`] = [
        "The staffer cannot be booked for this service at this location.",
      ];
    }
    const quantity = s.quantity ?? 1;
    if (quantity > row.capacity) {
      problems[`services.${i}.quantity`] = [
        `May not be greater than the service's capacity (${row.capacity}).`,
      ];
    }
    // The price is per seat.
    price += effectivePrice(row) * quantity;
    cart.push({
      durationMin: row.duration,
      bufferMin: bufferOf(row),
      stafferIds: s.staffer_uuid ? [s.staffer_uuid] : performers,
      resourceIds: inputs.resourcesOf(row.id),
      // A group service fits where its seats are free (a session with seats left, or a new one).
      session: sessionAskOf(row, quantity),
    });
  });
  if (Object.keys(problems).length > 0) throw validationError(problems);
  const staffers = [...inputs.calendars.values()];
  return { inputs, cart, staffers, price };
}

/** The reference's cart response: one entry holding a date and first slot per fitting day. */
export function renderCartDays(
  c: Context<PublicEnv>,
  fits: CartDay[],
  price: number,
  displayTz: string,
) {
  const ws = c.var.workspace;
  const dates = fits.flatMap((fit) => {
    const last = fit.assignments[fit.assignments.length - 1];
    const [day] = renderDays(
      [
        {
          date: fit.date,
          slots: [{ start: fit.start, end: last?.end ?? fit.start }],
          intervals: [],
        },
      ],
      displayTz,
    ).filter((d) => d.slots.length > 0);
    const slot = day?.slots[0];
    if (!day || !slot) return [];
    return [
      {
        date: day.date,
        slot: {
          start: slot.start,
          start_formatted: slot.start_formatted,
          end: slot.end,
          end_formatted: slot.end_formatted,
          price,
          price_formatted: formatMoney(price, ws.currency, ws.locale),
          // One entry per service, in the cart's order.
          staffers: fit.assignments.map((a) => ({ uuid: a.stafferId })),
        },
      },
    ];
  });
  return { data: dates.length > 0 ? [{ timezone: displayTz, currency: ws.currency, dates }] : [] };
}

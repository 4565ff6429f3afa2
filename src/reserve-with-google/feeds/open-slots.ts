import type { Scope } from "../../db/scope";
import { engineInputs } from "../../calendar/availability/engine-input";
import { loadAvailability, shiftDate } from "../../calendar/queries/availability";
import { instantToLocalDate, searchSlots, sessionAskOf } from "../../calendar/rules";
import { bufferOf } from "../../catalogue/rules/service-terms";
import { bookableThroughGoogle } from "../rules/bookable";
import { servicesOfferedAt } from "../queries/offered";
import type { OpenSlot } from "../rules/open-slot";

export type { OpenSlot };

/** The longest window one call searches (a month of Google's 30-day availability, and a day to spare). */
export const MAX_OPEN_SLOTS_DAYS = 31;
const DAY_MS = 86_400_000;

/**
 * Every open start in [fromMs, toMs) of every service a customer may book
 * online at the location and Google may offer (`bookableThroughGoogle`),
 * found exactly as the public time slots are (widget-only services, the
 * location's grid, notice and busy time). One D1 read batch. Null when the
 * location does not exist.
 */
export async function openSlots(
  scope: Scope,
  q: { locationId: string; fromMs: number; toMs: number; now?: number },
): Promise<OpenSlot[] | null> {
  if (!(q.toMs > q.fromMs) || q.toMs - q.fromMs > MAX_OPEN_SLOTS_DAYS * DAY_MS) {
    throw new RangeError(`openSlots: a window of at most ${MAX_OPEN_SLOTS_DAYS} days`);
  }
  // The zone is read in the same batch: a day either side of the UTC dates covers every zone.
  const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const loaded = await loadAvailability(scope, {
    locationId: q.locationId,
    serviceIds: servicesOfferedAt(scope, q.locationId),
    fromDate: shiftDate(utcDate(q.fromMs), -1),
    toDate: shiftDate(utcDate(q.toMs), 1),
    widgetOnly: true,
  });
  const inputs = engineInputs(loaded);
  if (!inputs) return null;
  const tz = inputs.rules.timezone;
  const fromDate = instantToLocalDate(q.fromMs, tz);
  const toDate = instantToLocalDate(q.toMs - 1, tz);
  const now = q.now ?? Date.now();

  const out: OpenSlot[] = [];
  const services = loaded.services
    .filter((s) => loaded.offeredAt.has(s.id) && bookableThroughGoogle(s))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const service of services) {
    const performers = inputs.performersOf(service.id);
    if (performers.length === 0) continue;
    const resources = inputs.requiredBy(service.id);
    const seats = Math.max(1, service.capacity);
    const spotsTotal = Math.min(performers.length, ...resources.map((r) => r.units.length)) * seats;
    if (spotsTotal === 0) continue;
    const days = searchSlots({
      location: inputs.rules,
      staffers: performers,
      durationMin: service.duration,
      bufferMin: bufferOf(service),
      resources,
      session: sessionAskOf(service),
      fromDate,
      toDate,
      now,
    });
    for (const day of days) {
      for (const slot of day.slots) {
        if (slot.start < q.fromMs || slot.start >= q.toMs) continue;
        out.push({
          serviceId: service.id,
          startSec: Math.floor(slot.start / 1000),
          durationSec: service.duration * 60,
          spotsTotal,
          spotsOpen: Math.min(slot.quantity, spotsTotal),
        });
      }
    }
  }
  return out;
}

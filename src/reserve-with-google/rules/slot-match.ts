/**
 * Which of the slot engine's slots a slot Google asks about is. Google names a slot by its
 * start, its duration and perhaps a staffer; the engine lists a service's starts on the
 * location's grid with the bookings still possible at each (`quantity`). A slot exists only
 * when its duration is the service's own and its start is one the engine listed.
 */

const DAY_MS = 86_400_000;

/** The widest span of days one call may ask about (the public time-slots search's bound). */
export const MAX_SPAN_DAYS = 62;

/**
 * How far ahead a start may be and still be searched. The locations have no booking horizon
 * of their own (the public API books any future start); this only keeps absurd int64 starts
 * (up to year 318,857) out of the zone arithmetic: past it, a start is answered unavailable.
 */
export const HORIZON_DAYS = 10 * 366;

/** One slot Google asks about, in the engine's units (ms) and the request's (seconds). */
export interface SlotAsk {
  serviceId: string;
  startSec: number;
  durationSec: number;
  /** "" = anyone. */
  staffId: string;
}

/** A slot of the engine: its start (epoch ms) and the bookings still possible there. */
export interface EngineSlot {
  start: number;
  quantity: number;
}

/** Whether an ask could be a slot at all, before any calendar is read: not past, not beyond the horizon. */
export const searchable = (ask: Pick<SlotAsk, "startSec">, now: number): boolean => {
  const start = ask.startSec * 1000;
  return start >= now && start <= now + HORIZON_DAYS * DAY_MS;
};

/**
 * The count available for an ask among one service's engine slots (sorted by start, as the
 * engine returns them): the slot's quantity when the duration is the service's and the
 * start is listed, otherwise 0.
 */
export function matchSlot(
  slots: readonly EngineSlot[],
  ask: Pick<SlotAsk, "startSec" | "durationSec">,
  serviceDurationMin: number,
): number {
  if (ask.durationSec !== serviceDurationMin * 60) return 0;
  const start = ask.startSec * 1000;
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((slots[mid] as EngineSlot).start < start) lo = mid + 1;
    else hi = mid;
  }
  const found = slots[lo];
  return found !== undefined && found.start === start ? found.quantity : 0;
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The UTC dates to read so that every start's local date, in any zone, is inside (a day
 * either side); null when the starts span more than `MAX_SPAN_DAYS` days. With no start,
 * the day of `now` (the read still checks the merchant and the services).
 */
export function readWindow(
  startsSec: readonly number[],
  now: number,
): { fromDate: string; toDate: string } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of startsSec) {
    min = Math.min(min, s * 1000);
    max = Math.max(max, s * 1000);
  }
  if (min > max) min = max = now;
  const first = Math.floor(min / DAY_MS);
  const last = Math.floor(max / DAY_MS);
  if (last - first > MAX_SPAN_DAYS) return null;
  return { fromDate: utcDate((first - 1) * DAY_MS), toDate: utcDate((last + 1) * DAY_MS) };
}

/** One engine search: a service, a staffer ("" = anyone) and a local date, and the asks it answers. */
export interface Search<A> {
  serviceId: string;
  staffId: string;
  date: string;
  asks: A[];
}

/** The asks grouped by the engine search that answers them, in the order first asked. */
export function searchesOf<A extends SlotAsk>(
  asks: readonly A[],
  localDate: (startMs: number) => string,
): Search<A>[] {
  const out = new Map<string, Search<A>>();
  for (const ask of asks) {
    const date = localDate(ask.startSec * 1000);
    const key = JSON.stringify([ask.serviceId, ask.staffId, date]);
    let search = out.get(key);
    if (!search) {
      search = { serviceId: ask.serviceId, staffId: ask.staffId, date, asks: [] };
      out.set(key, search);
    }
    search.asks.push(ask);
  }
  return [...out.values()];
}

import { Temporal } from "temporal-polyfill";

/** From this instant (ms) on, a location's wall clock is `offsetMs` ahead of UTC. */
export interface ZoneOffset {
  fromMs: number;
  offsetMs: number;
}

/** The earliest instant an offset row can start from (far before any booking). */
export const SINCE_EVER = -8_640_000_000_000_000;
/** Offsets are listed up to here; later instants keep the last one (zones change their rules by then anyway). */
export const OFFSETS_UNTIL = Date.UTC(2100, 0, 1);

const offsetAt = (zone: string, ms: number) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).offsetNanoseconds / 1e6;

/**
 * Every offset a zone has from `fromMs` (the first row starts there, with the
 * offset in force then) to 2100: one row per transition. Rollups in SQL find a
 * location's day from these rows, since SQLite knows no time zones.
 */
export function zoneOffsets(zone: string, fromMs: number = SINCE_EVER): ZoneOffset[] {
  // The polyfill's range starts in -271821; anything before 1900 takes 1900's offset.
  const start = Math.max(fromMs, Date.UTC(1900, 0, 1));
  const rows: ZoneOffset[] = [{ fromMs, offsetMs: offsetAt(zone, start) }];
  let at = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(zone);
  for (;;) {
    const next = at.getTimeZoneTransition("next");
    if (!next || next.epochMilliseconds >= OFFSETS_UNTIL) break;
    const offsetMs = next.offsetNanoseconds / 1e6;
    const last = rows[rows.length - 1];
    if (last && last.offsetMs !== offsetMs) rows.push({ fromMs: next.epochMilliseconds, offsetMs });
    at = next;
  }
  return rows;
}

/** The offset in force at `ms` (rows sorted by `fromMs`; before the first row, its offset). */
export function offsetIn(offsets: readonly ZoneOffset[], ms: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = offsets[mid];
    if (row && row.fromMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return offsets[found]?.offsetMs ?? 0;
}

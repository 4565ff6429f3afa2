import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";

/**
 * Wall-clock time in an IANA zone → its UTC offset in seconds, as RFC 5545 §3.3.5 reads local
 * time: a time in a DST gap (02:30 on a spring-forward night) takes the offset from before the
 * gap (it is 03:30 after), a time in an overlap (02:30 on a fall-back night) the first of its
 * two instants. Temporal's "compatible" disambiguation is exactly that; the offset is then
 * wall-clock-as-UTC minus the instant, so a gap time is not shifted twice.
 */
export function wallClockOffset(timeZone: string, wall: WallClock): number {
  // Cached per wall-clock hour when the whole hour has one offset (every hour but the few
  // around a transition, which are then looked up to the minute).
  const hourKey = `${timeZone}|${wall.year}-${wall.month}-${wall.day}T${wall.hour}`;
  const cached = OFFSETS.get(hourKey);
  if (cached !== undefined) return cached;
  // Field by field: an ical.js Time keeps them in getters, which a spread would not copy.
  const { year, month, day, hour, minute } = wall;
  const first = offsetAt(timeZone, { year, month, day, hour, minute: 0 });
  const last = offsetAt(timeZone, { year, month, day, hour, minute: 59 });
  // Bounded: a pathological calendar cannot grow it without end (offsets are cheap to redo).
  if (OFFSETS.size > 100_000) OFFSETS.clear();
  if (first === last) {
    OFFSETS.set(hourKey, first);
    return first;
  }
  return offsetAt(timeZone, { year, month, day, hour, minute });
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function offsetAt(timeZone: string, wall: WallClock): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const instant = Temporal.PlainDateTime.from({
    year: wall.year,
    month: wall.month,
    day: wall.day,
    hour: wall.hour,
    minute: wall.minute,
  }).toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;
  return (asUtc - instant) / 1000;
}

const OFFSETS = new Map<string, number>();

/** Whether the runtime knows this IANA zone name (Intl's database, as Temporal uses it). */
export function isIanaZone(name: string): boolean {
  if (KNOWN.has(name)) return KNOWN.get(name) ?? false;
  let known: boolean;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    known = name.length > 0;
  } catch {
    known = false;
  }
  if (KNOWN.size > 10_000) KNOWN.clear();
  KNOWN.set(name, known);
  return known;
}

const KNOWN = new Map<string, boolean>();

/**
 * An ical.js zone for an IANA name whose offsets come from the runtime (Intl/Temporal), for
 * TZIDs a file names without defining them in a VTIMEZONE. ical.js asks a zone only for
 * `utcOffset(time)` (to compare and convert times, EXDATE and UNTIL included).
 */
function ianaZone(tzid: string): ICAL.Timezone {
  const zone = ICAL.Timezone.fromData({ tzid });
  zone.utcOffset = (time: ICAL.Time) => wallClockOffset(tzid, time);
  return zone;
}

/**
 * Makes an IANA name known to ical.js's zone service (it looks a TZID up there when the file
 * has no VTIMEZONE of that name; a VTIMEZONE in the file always wins, and is never registered:
 * the service is shared by every calendar this isolate reads). What is registered depends only
 * on the name and the runtime's zone data, never on a file, so sharing it is harmless.
 * True when the name is an IANA zone (now known to ical.js).
 */
export function ensureIanaZone(tzid: string): boolean {
  if (ICAL.TimezoneService.has(tzid)) return tzid !== "floating";
  if (!isIanaZone(tzid)) return false;
  ICAL.TimezoneService.register(ianaZone(tzid), tzid);
  return true;
}

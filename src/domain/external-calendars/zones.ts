import ICAL from "ical.js";
import { OffsetTable } from "../availability/zone";

/**
 * Wall-clock time in an IANA zone → its UTC offset in seconds, as RFC 5545 §3.3.5 reads local
 * time: a time in a DST gap (02:30 on a spring-forward night) takes the offset from before the
 * gap (it is 03:30 after), a time in an overlap (02:30 on a fall-back night) the first of its
 * two instants (Temporal's "compatible"). From the zone's transitions, read once per zone
 * (`OffsetTable`): a calendar of thousands of events makes no Temporal object per time.
 */
export function wallClockOffset(timeZone: string, wall: WallClock): number {
  const table = tableOf(timeZone);
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // The offsets a day either side: transitions are months apart, so these are the only two
  // this wall-clock time can have. An offset fits when the instant it gives has it.
  const before = table.offsetAt(local - DAY_MS);
  const after = table.offsetAt(local + DAY_MS);
  const fits = (offset: number) => table.offsetAt(local - offset) === offset;
  if (fits(before) && fits(after)) return Math.max(before, after) / 1000; // overlap: the first
  if (fits(after)) return after / 1000;
  if (fits(before)) return before / 1000;
  return before / 1000; // gap: the offset before it
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const DAY_MS = 86_400_000;
/**
 * The span each zone's transitions are read for (~20 ms a zone, once per isolate; 1900–2100
 * took ~100 ms). Busy time is never more than 180 days ahead; a time before 1970 (the start
 * of an old series) takes the 1970 offset, which can only move instants long past.
 */
const TABLE_FROM = Date.UTC(1970, 0, 1);
const TABLE_TO = Date.UTC(2060, 0, 1);
const TABLES = new Map<string, OffsetTable>();

/** The zone's offsets, read once per isolate (they depend on the zone's name only). */
function tableOf(timeZone: string): OffsetTable {
  let table = TABLES.get(timeZone);
  if (!table) {
    table = new OffsetTable(timeZone, TABLE_FROM, TABLE_TO);
    TABLES.set(timeZone, table);
  }
  return table;
}

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

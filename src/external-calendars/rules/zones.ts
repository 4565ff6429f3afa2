import ICAL from "ical.js";
import { OffsetTable } from "../../calendar/rules/zone";
import { foreignZone } from "./windows-zones";

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
  return before / 1000; // fits, or a gap: the offset before it
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

/** Offset tables kept at most: names are canonical, so real use stays far below it. */
const MAX_TABLES = 1_000;

/** The zone's offsets, read once per isolate (they depend on the zone's name only). */
function tableOf(name: string): OffsetTable {
  const timeZone = canonicalZone(name) ?? name;
  let table = TABLES.get(timeZone);
  if (!table) {
    if (TABLES.size >= MAX_TABLES) TABLES.clear();
    table = new OffsetTable(timeZone, TABLE_FROM, TABLE_TO);
    TABLES.set(timeZone, table);
  }
  return table;
}

/**
 * The runtime's own spelling of an IANA zone name, or null when it knows no such zone. Intl
 * accepts any letter case ("eUROPE/berlin"): names are used as keys (offset tables, ical.js's
 * zone service) only in this spelling, so a file cannot grow them with new spellings.
 */
export function canonicalZone(name: string): string | null {
  const cached = KNOWN.get(name);
  if (cached !== undefined) return cached;
  let canonical: string | null;
  try {
    canonical =
      name.length > 0
        ? new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone
        : null;
  } catch {
    canonical = null;
  }
  if (KNOWN.size > 10_000) KNOWN.clear();
  KNOWN.set(name, canonical);
  return canonical;
}

const KNOWN = new Map<string, string | null>();

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
 * Makes an IANA name (in the runtime's spelling: `canonicalZone`) known to ical.js's zone service (it looks a TZID up there when the file
 * has no VTIMEZONE of that name; a VTIMEZONE in the file always wins, and is never registered:
 * the service is shared by every calendar this isolate reads). What is registered depends only
 * on the name and the runtime's zone data, never on a file, so sharing it is harmless.
 * The canonical name it is known under, or null when the name is no IANA zone.
 */
export function ensureIanaZone(tzid: string): string | null {
  if (tzid === "floating") return null;
  const canonical = canonicalZone(tzid);
  if (canonical === null) return null;
  if (!ICAL.TimezoneService.has(canonical)) {
    ICAL.TimezoneService.register(ianaZone(canonical), canonical);
  }
  return canonical;
}

/**
 * Makes a Windows zone name or an offset-only TZID (`foreignZone`) known to ical.js: the IANA
 * zone it maps to, or a fixed-offset zone named after its offset (at most 1,700 such names,
 * whatever the files say). The name it is known under, or null when it is neither.
 */
export function ensureForeignZone(tzid: string): string | null {
  const foreign = foreignZone(tzid);
  if (foreign === null) return null;
  if ("iana" in foreign) return ensureIanaZone(foreign.iana);
  const minutes = foreign.offsetMinutes;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const name = `x-fixed/UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  if (!ICAL.TimezoneService.has(name)) {
    const zone = ICAL.Timezone.fromData({ tzid: name });
    zone.utcOffset = () => minutes * 60;
    ICAL.TimezoneService.register(zone, name);
  }
  return name;
}

/** Dates and times on the customer's clock (the browser's zone). */

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD` of a Date on the local clock. */
export const localDate = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Local midnight of a `YYYY-MM-DD` date, as a Date. */
function midnight(date: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The UTC instants bounding one local day, for a time-slot search. */
export function dayRange(date: string): { start: string; end: string } {
  const start = midnight(date);
  const end = new Date(midnight(addDays(date, 1)).getTime() - 1000);
  return { start: toUtc(start), end: toUtc(end) };
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the form every booking body takes. */
export const toUtc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** A local `YYYY-MM-DD` + `HH:MM` (as the search renders them in our zone) as a UTC instant. */
export function localToUtc(date: string, time: string): string {
  const [h, min] = time.split(":").map(Number) as [number, number];
  const d = midnight(date);
  d.setHours(h, min, 0, 0);
  return toUtc(d);
}

/**
 * Dates and times as the visitor reads them: `locale` is the tag the page formats with,
 * `timeZone` the zone to read the instant in (the browser's when left out; the manage page
 * passes the location's).
 */
export const formatTime = (instant: string, locale?: string, timeZone?: string) =>
  new Date(instant).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", timeZone });

/**
 * A start as the customer's language writes a time of day: "9:00 AM" in English, "09:00"
 * or "9:00" in German (as Intl has it), never a padded "09:00 AM".
 */
export const formatClock = (instant: string, locale?: string, timeZone?: string) =>
  new Date(instant).toLocaleTimeString(locale, { hour: "numeric", minute: "2-digit", timeZone });

/** A start with its day, in the customer's own style: "Friday, December 4, 9:00 AM". */
export const formatWhen = (instant: string, locale?: string, timeZone?: string) =>
  new Date(instant).toLocaleString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  });

/** A calendar day in full: "Friday, December 4, 2026". */
export const formatLongDay = (date: string, locale?: string) =>
  midnight(date).toLocaleDateString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  });

/** A month's title: "December 2026". */
export const formatMonth = (month: string, locale?: string) =>
  midnight(`${month}-01`).toLocaleDateString(locale, { month: "long", year: "numeric" });

/** Weekday names from Monday (1) to Sunday (7), short and long, in the locale. */
export function weekdayNames(locale?: string): { short: string; long: string }[] {
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => {
    const d = new Date(2024, 0, 1 + i);
    return {
      short: d.toLocaleDateString(locale, { weekday: "short" }),
      long: d.toLocaleDateString(locale, { weekday: "long" }),
    };
  });
}

export const formatDateTime = (instant: string, locale?: string, timeZone?: string) =>
  new Date(instant).toLocaleString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  });

/** With the year: a date a customer reads later (the manage page, a booking weeks ahead). */
export const formatFullDateTime = (instant: string, locale?: string, timeZone?: string) =>
  new Date(instant).toLocaleString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  });

export const formatDay = (date: string, locale?: string) =>
  midnight(date).toLocaleDateString(locale, { weekday: "short", day: "numeric", month: "short" });

/** How far `zone`'s wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** `YYYY-MM-DD` of an instant on `zone`'s clock. */
export function dateInZone(instant: string | number, zone: string): string {
  const ms = typeof instant === "number" ? instant : Date.parse(instant);
  return new Date(ms + zoneOffset(ms, zone)).toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` date `days` later, as a calendar date (no clock involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = ymd(date);
  return new Date(Date.UTC(y, m, d + days)).toISOString().slice(0, 10);
}

function ymd(date: string): [number, number, number] {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return [y, m - 1, d];
}

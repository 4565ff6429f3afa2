/** Dates and times on the customer's clock (the browser's zone). */

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD` of a Date on the local clock. */
export const localDate = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return localDate(new Date(y, m - 1, d + days));
}

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

export const formatTime = (instant: string, locale?: string) =>
  new Date(instant).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });

export const formatDateTime = (instant: string, locale?: string) =>
  new Date(instant).toLocaleString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
  });

export const formatDay = (date: string, locale?: string) =>
  midnight(date).toLocaleDateString(locale, { weekday: "short", day: "numeric", month: "short" });

/**
 * An instant as a customer reads it: weekday and date, and time, in the
 * location's zone with the locale's formats. Intl applies the zone's rules
 * of that very day, so both sides of a daylight-saving change come out right.
 */
export function localDate(at: number, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  }).format(at);
}

export function localTime(at: number, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, hour: "numeric", minute: "2-digit" }).format(
    at,
  );
}

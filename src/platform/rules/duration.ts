/** Milliseconds in a minute: durations are minutes, instants epoch milliseconds. */
export const MINUTE = 60_000;

/**
 * Where a service's busy time ends: its end plus the buffer its staffer (and
 * every resource unit it takes) keeps after it. The one place that adds the
 * buffer to an end; src/bookings/queries/booking-refs.ts repeats it in SQL.
 */
export const busyEnd = (end: number, bufferMin: number) => end + bufferMin * MINUTE;

/** How long a service keeps its calendars busy: its duration plus its buffer, in ms. */
export const busyLength = (durationMin: number, bufferMin: number) =>
  busyEnd(durationMin * MINUTE, bufferMin);

/** The reference's duration object: minutes, a unit label and the ISO 8601 form. */
export interface Duration {
  value: number;
  label: string;
  iso_8601: string;
}

export function durationObject(minutes: number): Duration {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const iso =
    minutes === 0 ? "PT0M" : `PT${hours > 0 ? `${hours}H` : ""}${rest > 0 ? `${rest}M` : ""}`;
  return { value: minutes, label: "minutes", iso_8601: iso };
}

import { Temporal } from "temporal-polyfill";

/** An instant as wall-clock time in a zone, with its offset: 2030-05-04T12:00:00+02:00. */
export function toLocalIso(ms: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(timeZone)
    .toString({ timeZoneName: "never", fractionalSecondDigits: 0 });
}

import { Temporal } from "temporal-polyfill";

/**
 * A move of a series in wall-clock time: the difference between two local
 * date-times in the location's zone, applied to each occurrence as local time
 * again. A 10:00 → 11:00 move keeps every later occurrence at 11:00 local,
 * whatever DST change lies between them (an instant-based shift would move
 * the occurrences past the change to 10:00 or 12:00).
 */
export interface LocalShift {
  /** The shift's instants for one occurrence: its new start, epoch ms. */
  apply: (startAt: number) => number;
}

const local = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDateTime();

/**
 * The shift that takes the occurrence starting at `from` to `to`, in `zone`.
 * A local time that does not exist on some day (skipped by a DST change) moves
 * forward by the gap; a repeated one takes its first occurrence ("compatible").
 */
export function localShift(from: number, to: number, zone: string): LocalShift {
  const by = local(from, zone).until(local(to, zone), { largestUnit: "days" });
  return {
    apply: (startAt) =>
      local(startAt, zone).add(by).toZonedDateTime(zone, { disambiguation: "compatible" })
        .epochMilliseconds,
  };
}

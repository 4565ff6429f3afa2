import { instantConverter, overlapsMerged, PreparedStaffer } from "./busy-time";
import type { Interval, LocationRules, StafferCalendarInput, StartVerdict } from "./types";
import { OffsetTable } from "./zone";
import { busyLength, MINUTE } from "../duration";

const DAY = 86_400_000;

/** The slot rules for one proposed start of one staffer; off-grid starts are allowed. */
export function checkStart(args: {
  location: LocationRules;
  staffer: StafferCalendarInput;
  durationMin: number;
  bufferMin: number;
  start: number;
  now: number;
}): StartVerdict {
  const prepared = new PreparedStaffer(
    args.staffer,
    args.location,
    instantConverter(args.location.timezone),
  );
  return verdictFor(
    prepared,
    args.start,
    busyLength(args.durationMin, args.bufferMin),
    args.now,
    [],
  );
}

/** Shared by checkStart and the cart: `extra` is busy time the caller is about to add. */
export function verdictFor(
  staffer: PreparedStaffer,
  start: number,
  need: number,
  now: number,
  extra: readonly Interval[],
  zone = new OffsetTable(staffer.rules.timezone, start - DAY, start + DAY),
): StartVerdict {
  if (start < now + staffer.rules.minNoticeMin * MINUTE) return "in_past";
  const date = zone.localDate(start);
  const inside = staffer.workingOn(date).some((w) => w.start <= start && start + need <= w.end);
  if (!inside) return "outside_hours";
  if (overlapsMerged(staffer.busy, start, start + need)) return "busy";
  if (extra.some((e) => e.start < start + need && start < e.end)) return "busy";
  return "ok";
}

import { instantConverter, overlapsMerged, PreparedStaffer } from "./busy-time";
import { sessionFit } from "./sessions";
import type {
  Interval,
  LocationRules,
  SessionAsk,
  StafferCalendarInput,
  StartVerdict,
} from "../../../src/calendar/rules/types";
import { OffsetTable } from "../../../src/calendar/rules/zone";
import { busyLength, MINUTE } from "../../../src/platform/rules/duration";

const DAY = 86_400_000;

/** The slot rules for one proposed start of one staffer; off-grid starts are allowed. */
export function checkStart(args: {
  location: LocationRules;
  staffer: StafferCalendarInput;
  durationMin: number;
  bufferMin: number;
  start: number;
  now: number;
  /** A group service: the start joins (or opens) its session there. */
  session?: SessionAsk | undefined;
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
    undefined,
    args.session,
  );
}

/**
 * Shared by checkStart and the cart: `extra` is busy time the caller is about
 * to add. A group service (`session`) may share its start's time with the
 * session of the same service there, while seats are left (`full` otherwise).
 */
export function verdictFor(
  staffer: PreparedStaffer,
  start: number,
  need: number,
  now: number,
  extra: readonly Interval[],
  zone = new OffsetTable(staffer.rules.timezone, start - DAY, start + DAY),
  session?: SessionAsk,
): StartVerdict {
  if (start < now + staffer.rules.minNoticeMin * MINUTE) return "in_past";
  const date = zone.localDate(start);
  const inside = staffer.workingOn(date).some((w) => w.start <= start && start + need <= w.end);
  if (!inside) return "outside_hours";
  if (session)
    return sessionFit(staffer.split, session, staffer.id, start, start + need, extra).verdict;
  if (overlapsMerged(staffer.busy, start, start + need)) return "busy";
  if (extra.some((e) => e.start < start + need && start < e.end)) return "busy";
  return "ok";
}

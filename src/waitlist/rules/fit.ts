import {
  type Assignment,
  type CartService,
  firstFitOn,
  type Interval,
  type LocationRules,
  prepare,
  type ResourceInput,
  type StafferCalendarInput,
} from "../../calendar/rules";
import { dayNumberOf } from "../../calendar/rules/zone";
import { overlapsAny, type TimeWindow, withinTimes } from "./rules";

const DAY = 86_400_000;

export interface WaitlistFit {
  start: number;
  assignments: Assignment[];
}

/**
 * The earliest start on the given local dates (sorted) at which an entry's
 * services fit back to back, as a cart item would be placed (fixed staffers
 * kept, others auto-allocated), with the whole visit inside one of its time
 * windows and clear of the offers it let pass.
 */
export function firstWaitlistFit(args: {
  location: LocationRules;
  services: CartService[];
  staffers: StafferCalendarInput[];
  resources?: ResourceInput[];
  dates: readonly string[];
  times: readonly TimeWindow[] | null;
  passed: readonly Interval[];
  now: number;
}): WaitlistFit | null {
  const [first] = args.dates;
  const last = args.dates.at(-1);
  if (!first || !last || args.services.length === 0) return null;
  const p = prepare(
    args.location,
    args.staffers,
    dayNumberOf(first) * DAY - DAY,
    dayNumberOf(last) * DAY + 13 * DAY,
    args.resources,
  );
  for (const date of args.dates) {
    const fit = firstFitOn(p, date, args.services, args.now, (start, assignments) => {
      const end = assignments.at(-1)?.end ?? start;
      return withinTimes(p.zone, start, end, args.times) && !overlapsAny(start, end, args.passed);
    });
    if (fit) return { start: fit.start, assignments: fit.assignments };
  }
  return null;
}

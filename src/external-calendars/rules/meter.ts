import ICAL from "ical.js";
import { IcsError } from "./errors";

/**
 * Counts the work ical.js's recurrence iterator does, step by step, wherever it is asked for
 * occurrences (an event's series, a VTIMEZONE's rules read while converting a time): a rule
 * whose BY parts never match spins inside one `next()` call, so counting the occurrences it
 * returns bounds nothing. A step is one of:
 * - one `next()` call;
 * - one pass of `next()`'s search loop (each candidate it tries and rejects);
 * - one day walked by its day-by-day increment (an INTERVAL of a million days walks a million);
 * - one year's day list built (YEARLY rules).
 * A Worker's clock does not move during CPU work, so steps are what can stop it, not time.
 */
export interface StepCounts {
  /** Steps taken for the whole calendar. */
  total: number;
  /** Steps taken for the event being read. */
  event: number;
}

/** Thrown when one event's expansion needs more than its share: that event is skipped. */
export class EventTooComplex extends Error {
  constructor() {
    super("An event's recurrence needs more expansion steps than allowed.");
    this.name = "EventTooComplex";
  }
}

export class StepBudget implements StepCounts {
  total = 0;
  event = 0;

  constructor(
    private readonly calendarLimit: number,
    private readonly eventLimit: number,
  ) {}

  /** A new event starts: its own count from zero. */
  startEvent(): void {
    this.event = 0;
  }

  charge(steps: number): void {
    // Charged before the work: an INTERVAL of 10⁹ days is refused before it walks one. A
    // charge past the event's share is that event's fault: the calendar pays only the share.
    const fits = Math.min(steps, Math.max(0, this.eventLimit - this.event));
    this.total += fits;
    this.event += fits;
    if (this.total > this.calendarLimit)
      throw new IcsError(
        "too_complex",
        `The calendar's recurring events need more than ${this.calendarLimit} expansion steps.`,
      );
    if (fits < steps) throw new EventTooComplex();
  }
}

/** The budget of the calendar being read (reading is synchronous: one at a time per isolate). */
let active: StepBudget | null = null;

/** Runs `read` with every iterator step charged to `budget`. */
export function metered<T>(budget: StepBudget, read: () => T): T {
  install();
  const before = active;
  active = budget;
  try {
    return read();
  } finally {
    active = before;
  }
}

/**
 * Weights measured under Node (a zoned HOURLY rule that never matches: ~8 µs a pass; a day
 * walked is a few integer operations; a year's day list up to 366 entries).
 */
const PASS_STEPS = 4;
const YEAR_STEPS = 10;

type Method = (this: unknown, ...args: unknown[]) => unknown;

let installed = false;

/**
 * Wraps the iterator's step methods once per isolate. Outside `metered` (nothing else in the
 * app expands rules, but a test or a library might) they run as before, uncounted.
 */
function install(): void {
  if (installed) return;
  installed = true;
  const proto = ICAL.RecurIterator.prototype as unknown as Record<string, Method>;
  const wrap = (name: string, cost: (args: unknown[]) => number) => {
    const original = proto[name];
    if (typeof original !== "function") throw new Error(`ical.js has no RecurIterator.${name}`);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      active?.charge(cost(args));
      return original.apply(this, args);
    };
  };
  wrap("next", () => 1);
  // Evaluated once per pass of next()'s search loop, whatever the frequency. A pass compares
  // zoned times (offset look-ups) and builds day-of-week and day-of-year values: it weighs
  // PASS_STEPS.
  wrap("check_contracting_rules", () => PASS_STEPS);
  // Walks `inc` days one at a time (DAILY and WEEKLY INTERVALs, hours overflowing into days).
  wrap("increment_monthday", (args) => Math.max(1, Number(args[0]) || 1));
  wrap("expand_year_days", () => YEAR_STEPS);
}

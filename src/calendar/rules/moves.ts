import { anchorService, fixedLayout } from "./alternatives";
import { type CartService, prepare } from "./cart";
import type { LocationRules, ResourceInput, StafferCalendarInput } from "./types";
import { dateOfDayNumber, dayNumberOf } from "./zone";
import { MINUTE } from "../../platform/rules/duration";

const DAY = 86_400_000;

export interface MoveStartsInput {
  location: LocationRules;
  /** The booking's staffers' calendars, its own current busy time left out. */
  staffers: StafferCalendarInput[];
  /** The booking's services, each with its one staffer (`stafferIds[0]`). */
  services: CartService[];
  /** Each service's offset from the booking's start: the booking keeps its shape. */
  offsetsMs: number[];
  /** Inclusive local dates (the location's zone) whose starts are listed. */
  fromDate: string;
  toDate: string;
  /** The booking's current start: not a move, so not listed. */
  current: number;
  now: number;
  resources?: ResourceInput[];
}

/**
 * Every start a booking could be moved to, in order: the starts on the slot
 * grid of its opening service's staffer (working intervals stepped by the
 * location's slot step) where every service fits its own staffer, and a unit
 * of each resource it requires, at its own offset. The same test a
 * reschedule makes (and its 409's alternatives), over a range of days.
 */
export function moveStarts(input: MoveStartsInput): number[] {
  const anchor = anchorService(input);
  const openerId = anchor?.service.stafferIds[0];
  if (!anchor || !openerId) return [];
  const from = Date.parse(`${input.fromDate}T00:00:00Z`);
  const to = Date.parse(`${input.toDate}T00:00:00Z`);
  const p = prepare(input.location, input.staffers, from - DAY, to + 2 * DAY, input.resources);
  const fits = fixedLayout(p, input.services, input.offsetsMs, input.now);
  const step = Math.max(1, input.location.slotStepMin) * MINUTE;
  const starts: number[] = [];
  for (let day = dayNumberOf(input.fromDate); day <= dayNumberOf(input.toDate); day++) {
    for (const work of p.staffers.get(openerId)?.workingOn(dateOfDayNumber(day)) ?? []) {
      for (let t = work.start; t < work.end; t += step) {
        const start = t - anchor.offset;
        if (start !== input.current && start >= input.now && fits(start, [openerId]))
          starts.push(start);
      }
    }
  }
  return [...new Set(starts)].sort((a, b) => a - b);
}

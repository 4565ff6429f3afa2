import { isUnitCalendar } from "../calendar/ids";
import type { BusyInterval } from "../domain/availability";
import { SlotTakenError } from "../lib/errors";

/** Auto-allocation retries when another request claimed the chosen staffer first. */
const STAFFER_RETRIES = 2;
/**
 * A resource has at most 50 units, and each refusal rules one out: requests
 * that all chose the first free unit at once are spread over the others
 * instead of being refused while units are free.
 */
const UNIT_RETRIES = 50;

/**
 * Replanning after a calendar refused a claim: the refused time is noted busy
 * where the plan reads it, so the next plan picks another staffer or unit.
 * Every retry is one more calendar call and no D1 call.
 */
export class ClaimRetries {
  private staffers = 0;
  private units = 0;

  constructor(private readonly busyOf: (calendarId: string) => BusyInterval[] | undefined) {}

  /** Whether to plan again; records what the refusal showed as taken. */
  learn(error: unknown): boolean {
    if (!(error instanceof SlotTakenError)) return false;
    const unit = isUnitCalendar(error.calendarId);
    if (unit ? this.units++ >= UNIT_RETRIES : this.staffers++ >= STAFFER_RETRIES) return false;
    const busy = this.busyOf(error.calendarId);
    if (!busy) return false;
    busy.push(...error.conflicts.map((e) => ({ start: e.start, end: e.end, kind: e.kind })));
    return true;
  }
}

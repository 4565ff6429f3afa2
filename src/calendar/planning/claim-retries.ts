import { isUnitCalendar } from "../ids";
import type { BusyInterval } from "../rules";
import { SlotTakenError } from "../slot-taken";

/**
 * Auto-allocation retries when another request claimed the chosen staffer
 * first. Each one claims only the changed calendars (the others keep what
 * they granted), and the request's calendar budget stops them sooner when
 * they would cost too many calls.
 */
const STAFFER_RETRIES = 10;
/**
 * A resource has at most 50 units, and each refusal rules one out: requests
 * that all chose the first free unit at once are spread over the others
 * instead of being refused while units are free.
 */
const UNIT_RETRIES = 50;

/**
 * Replanning after a calendar refused a claim: the refused time is noted busy
 * where the plan reads it, so the next plan picks another staffer or unit.
 * Every calendar that refused in the same pass is learnt at once (ten
 * resources whose first units another write took are ten units to avoid, not
 * ten rounds). Every retry is more calendar calls and no D1 call; the
 * request's calendar budget (`calendar/budget.ts`) ends the retries first
 * when they would claim a calendar a third time or pass its calls.
 */
export class ClaimRetries {
  private staffers = 0;
  private units = 0;

  constructor(private readonly busyOf: (calendarId: string) => BusyInterval[] | undefined) {}

  /** Whether to plan again; records what the refusal showed as taken. */
  learn(error: unknown): boolean {
    if (!(error instanceof SlotTakenError)) return false;
    const kinds = new Set(error.refused.map((r) => isUnitCalendar(r.calendarId)));
    if (kinds.has(true) && this.units++ >= UNIT_RETRIES) return false;
    if (kinds.has(false) && this.staffers++ >= STAFFER_RETRIES) return false;
    let learnt = false;
    for (const { calendarId, conflicts } of error.refused) {
      const busy = this.busyOf(calendarId);
      if (!busy) continue;
      // A session's seats stay seats: the plan then finds the session full, not the time busy.
      busy.push(
        ...conflicts.map((e) => ({
          start: e.start,
          end: e.end,
          kind: e.kind,
          ...(e.session ? { session: e.session } : {}),
        })),
      );
      learnt = true;
    }
    return learnt;
  }
}

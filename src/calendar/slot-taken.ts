import type { BusyInterval } from "./rules";
import { ApiError } from "../platform/errors";

/** A calendar refused a claim: the time was taken since the slot search read D1. */
export class SlotTakenError extends ApiError {
  /** The staffer or resource unit whose calendar refused. */
  readonly calendarId: string;
  readonly conflicts: BusyInterval[];
  /** Every calendar that refused in the same pass (this one first), so a replan learns them all. */
  readonly refused: { calendarId: string; conflicts: BusyInterval[] }[];

  constructor(
    calendarId: string,
    conflicts: BusyInterval[],
    others: { calendarId: string; conflicts: BusyInterval[] }[] = [],
    /** Only a group session's seats were in the way: 409 `session_full`. */
    full = false,
  ) {
    super(
      full ? "session_full" : "slot_unavailable",
      full
        ? "The session has fewer seats left than asked for."
        : "The requested time is no longer available.",
    );
    this.calendarId = calendarId;
    this.conflicts = conflicts;
    this.refused = [{ calendarId, conflicts }, ...others];
  }
}

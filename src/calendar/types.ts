/** One interval of a staffer's busy time, as the calendar object stores it (epoch ms, half-open). */
export interface CalendarEntry {
  id: string;
  kind: "booking" | "blocked";
  start: number;
  end: number;
}

export interface ClaimRequest {
  /** Groups the entries of one write; confirm or release it as a whole. */
  holdId: string;
  entries: CalendarEntry[];
  /** Entries this write supersedes (a reschedule's old times): ignored by the check, removed on confirm. */
  replaces?: string[];
  /** Bookings must not overlap anything; blocked spots may be laid over existing time. */
  checkConflicts: boolean;
}

export type ClaimResult = { ok: true } | { ok: false; conflicts: CalendarEntry[] };

/** How long an unconfirmed hold lives before the object checks D1 and settles it. */
export const HOLD_TTL_MS = 30_000;

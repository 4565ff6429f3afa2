import type { BusyInterval } from "./rules";

/**
 * A busy interval of one calendar (a staffer's or a resource unit's) as the
 * calendar object and D1 both store it: the interval plus its identity. When
 * it `yields` (a publishable key's hold), a staff claim over it takes the time
 * and the whole reservation is dropped (its other calendars too).
 */
export interface CalendarEntry extends BusyInterval {
  /** The `calendar_entries` row id in D1: the same id on both sides. */
  id: string;
  /** The booking, blocked spot, reservation (`held`) or external calendar the interval belongs to. */
  source: string;
  /** Reservations only: busy until this instant, then as if gone (epoch ms). */
  expires?: number | null;
}

/** A publishable key's held entry a staff claim took over (`ClaimResult.displaced`). */
export interface DisplacedEntry {
  id: string;
  /** The reservation it belongs to. */
  source: string;
  /** The reservation's own write is still in flight (not confirmed): fence it in D1. */
  holdId: string | null;
}

export interface ClaimRequest {
  /** Whose calendar this is (a staffer or a resource unit): a fresh object loads its busy time from D1 first. */
  owner: { workspaceId: string; calendarId: string };
  /** Groups the entries of one write; confirm, release or settle it as a whole. */
  holdId: string;
  entries: CalendarEntry[];
  /**
   * Entries this write supersedes (a reschedule's old times, a cancelled
   * booking's time): ignored by the overlap check, locked against any other
   * write that would replace them too, removed on confirm.
   */
  replaces?: string[];
  /**
   * Bookings must not overlap anything; blocked spots may be laid over existing
   * bookings, but never over a reservation's live hold.
   */
  checkConflicts: boolean;
  /**
   * A staff write (secret key, blocked spot, resource block): a publishable
   * key's hold in its way is taken over instead of refusing the claim.
   */
  displaces?: boolean;
}

export type ClaimResult =
  /** `displaced`: publishable holds this claim took over (now replaced by its hold). */
  | { ok: true; displaced?: DisplacedEntry[] }
  /**
   * Another booking or blocked spot holds the time. `full`: only a session's
   * seats are in the way (its entries are the conflicts): the session has
   * fewer seats left than the claim asks.
   */
  | { ok: false; reason: "overlap"; conflicts: CalendarEntry[]; full?: true }
  /** Another live write is already replacing one of these entries: the record changed under us. */
  | { ok: false; reason: "replacing"; ids: string[] };

/** What the calendar object did with a hold it settled against D1. */
export interface Settlement {
  /** The hold's write is in D1 (its entries exist, or what it replaced is gone). */
  committed: boolean;
}

/**
 * An entry as the audit reports it, from either side: not a `BusyInterval` but
 * its API shape (the owner's uuid under its field name, ISO instants).
 */
export interface AuditInterval {
  booking_uuid?: string;
  blocked_spot_uuid?: string;
  reservation_uuid?: string;
  /** A staffer's external calendar's busy time. */
  external_calendar_uuid?: string;
  starts_at: string;
  ends_at: string;
}

export interface CalendarAudit {
  in_sync: boolean;
  only_in_calendar: AuditInterval[];
  only_in_d1: AuditInterval[];
}

/**
 * How long an unconfirmed hold lives before the object settles it against D1.
 * Far longer than any write needs; and even a write slower than this cannot
 * commit after the settlement, because settling fences the hold in D1.
 */
export const HOLD_TTL_MS = 30_000;

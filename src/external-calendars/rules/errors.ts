/**
 * Why an ICS text gives no busy time. Every reason is the API's 422 `calendar_invalid` when a
 * sync maps it (nothing of the calendar is kept); the reason and message say which limit or
 * rule the text broke.
 */
export type IcsRefusal =
  /** More than the byte limit (2 MB). */
  | "too_large"
  /** Not iCalendar text ical.js can read, or a value in it that does not parse. */
  | "unreadable"
  /** Readable, but not one VCALENDAR. */
  | "not_a_calendar"
  /** More busy occurrences in the window than the limit (5,000). */
  | "too_many_busy"
  /** Recurrence rules that need more expansion steps than the limit (100,000) to cover the window. */
  | "too_complex";

export class IcsError extends Error {
  /** The code a sync answers with (422). */
  readonly code = "calendar_invalid";
  constructor(
    readonly reason: IcsRefusal,
    message: string,
  ) {
    super(message);
    this.name = "IcsError";
  }
}

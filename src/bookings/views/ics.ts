import type { ICalCalendar } from "ical-generator";

/**
 * A calendar as RFC 5545 text. §3.1: every content line ends with CRLF, the
 * last one too; ical-generator leaves it off after END:VCALENDAR (a strict
 * reader then sees an unterminated line). Every .ics the API serves goes
 * through here: a booking's own file and a staffer's feed.
 */
export function icsText(calendar: ICalCalendar): string {
  const text = calendar.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

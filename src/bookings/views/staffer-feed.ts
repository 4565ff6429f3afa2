import ical, { ICalEventStatus, ICalEventTransparency } from "ical-generator";
import type { FeedContent } from "../queries/calendar-feeds";
import { icsText } from "./ics";

/** iCalendar keeps whole seconds: the stamps are cut to them so an unchanged feed is the same bytes. */
const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

const fullName = (first: string, last: string | null) => (last ? `${first} ${last}` : first);

/**
 * A staffer's feed as RFC 5545 text (ical-generator escapes TEXT values and folds lines at
 * 75 octets with CRLF). The conventions of a booking's own .ics: UID the booking's uuid,
 * SEQUENCE its version (every write bumps it), DTSTAMP and LAST-MODIFIED its last change, times
 * in UTC, no METHOD (the feed is the calendar as stored, not an iTIP message). Nothing in it
 * depends on the moment it is made, so an unchanged feed is the same bytes (and ETag).
 */
export function renderStafferFeed(feed: FeedContent): string {
  const calendar = ical({
    name: `Bookings: ${fullName(feed.staffer.firstName, feed.staffer.lastName)}`,
    prodId: { company: "salon-api", product: "staffer-feed" },
  });
  for (const b of feed.bookings) {
    const changed = second(b.updatedAt);
    calendar.createEvent({
      id: b.id,
      sequence: b.version,
      stamp: changed,
      lastModified: changed,
      created: second(b.createdAt),
      start: new Date(b.startsAt),
      end: new Date(b.endsAt),
      summary: `${b.serviceNames.join(", ")} – ${fullName(b.customerFirstName, b.customerLastName)}`,
      description: b.publicNotes || null,
      location: b.locationName,
      // A cancelled booking stays in the window as CANCELLED (apps strike it through or drop
      // it) and no longer makes the staffer busy in their other calendars' free/busy.
      status: b.isCanceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      transparency: b.isCanceled ? ICalEventTransparency.TRANSPARENT : ICalEventTransparency.OPAQUE,
    });
  }
  for (const s of feed.blocked) {
    // A blocked spot is never changed once made: SEQUENCE 0, stamped when it was made.
    const made = second(s.createdAt);
    calendar.createEvent({
      id: s.id,
      sequence: 0,
      stamp: made,
      lastModified: made,
      created: made,
      start: new Date(s.startsAt),
      end: new Date(s.endsAt),
      summary: s.comment ? `Blocked: ${s.comment}` : "Blocked",
      location: s.locationName,
      status: ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
    });
  }
  return icsText(calendar);
}

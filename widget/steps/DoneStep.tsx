import { formatDateTime } from "../time";
import type { Booking } from "../types";
import { Heading } from "./Heading";

export function DoneStep({ bookings }: { bookings: Booking[] }) {
  const first = bookings[0];
  const ical = first?.links.find((l) => l.type === "ical" && l.link)?.link;
  return (
    <section>
      <Heading>You are booked</Heading>
      <ul class="bookings">
        {bookings.map((b) => (
          <li key={b.uuid} data-booking={b.uuid}>
            {formatDateTime(b.start_time)}
          </li>
        ))}
      </ul>
      {ical && (
        <p>
          <a class="button primary" href={ical} target="_blank" rel="noopener">
            Add to my calendar
          </a>
        </p>
      )}
    </section>
  );
}

import { useI18n } from "../i18n/context";
import { formatDateTime } from "../time";
import type { Booking } from "../types";
import { Heading } from "./Heading";

/** `paid`: what was paid online for it ("Paid €12.00"), when anything was. */
export function DoneStep({ bookings, paid }: { bookings: Booking[]; paid?: string }) {
  const { t, format } = useI18n();
  const first = bookings[0];
  const ical = first?.links.find((l) => l.type === "ical" && l.link)?.link;
  return (
    <section>
      <Heading>{t("done.heading")}</Heading>
      <ul class="bookings">
        {bookings.map((b) => (
          <li key={b.uuid} data-booking={b.uuid}>
            {formatDateTime(b.start_time, format)}
          </li>
        ))}
      </ul>
      {paid && <p class="paid">{paid}</p>}
      {ical && (
        <p>
          <a class="button primary" href={ical} target="_blank" rel="noopener">
            {t("done.add_to_calendar")}
          </a>
        </p>
      )}
    </section>
  );
}

import type { ComponentChildren } from "preact";
import { useI18n } from "../i18n/context";
import { sentTo } from "../summary";
import type { Booking } from "../types";
import { Heading } from "./Heading";

const linkOf = (bookings: Booking[], type: string) =>
  bookings.flatMap((b) => b.links).find((l) => l.type === type && l.link)?.link;

/**
 * The confirmation: what was booked (the summary again), where to manage it, the calendar
 * file, and where its confirmation was sent. `paid`: what was paid online ("Paid €12.00").
 */
export function DoneStep(props: {
  bookings: Booking[];
  paid?: string;
  summary: ComponentChildren;
}) {
  const { t } = useI18n();
  const { bookings } = props;
  const manage = linkOf(bookings, "manage");
  const ical = linkOf(bookings, "ical");
  const sent = sentTo(bookings);
  return (
    <section>
      <Heading>{t("done.heading")}</Heading>
      <ul class="bookings" hidden>
        {bookings.map((b) => (
          <li key={b.uuid} data-booking={b.uuid} />
        ))}
      </ul>
      {props.summary}
      {props.paid && <p class="paid">{props.paid}</p>}
      {sent.length > 0 && (
        <ul class="sent-to">
          {sent.map((s) => (
            <li key={`${s.channel} ${s.to}`}>{t("done.sent_to", { to: s.to })}</li>
          ))}
        </ul>
      )}
      <div class="manage-actions">
        {manage && (
          <a class="button primary" href={manage} target="_blank" rel="noopener">
            {t("done.manage")}
          </a>
        )}
        {ical && (
          <a class="button" href={ical} target="_blank" rel="noopener">
            {t("done.add_to_calendar")}
          </a>
        )}
      </div>
    </section>
  );
}

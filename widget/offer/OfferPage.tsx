import { useEffect, useState } from "preact/hooks";
import type { Client } from "../api";
import { describe } from "../failure";
import { useI18n } from "../i18n/context";
import type { MessageKey } from "../i18n/messages";
import { Frame } from "../page/Frame";
import { applyAccent, faceOfSalon } from "../page/salon";
import { Heading } from "../steps/Heading";
import { Notice, type NoticeState } from "../steps/Notice";
import { formatFullDateTime, formatTime } from "../time";
import { bookingOf, bookOffer, loadOffer, missingFields, refusal } from "./flow";
import type { OfferBooking, OfferView } from "./types";

/** One waitlist offer, opened by the link in a customer's message: see the time, book it. */
export function OfferPage(props: { api: Client; token: string | null }) {
  const { api, token } = props;
  const { t, format } = useI18n();
  const [offer, setOffer] = useState<OfferView | null>(null);
  const [fatal, setFatal] = useState<MessageKey | null>(token ? null : "offer.no_token");
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  // Booked here, now: the booking with the words of the moment (a reopened link says less).
  const [justBooked, setJustBooked] = useState<OfferBooking | null>(null);
  // Fields the salon's booking form requires that the waitlist entry lacks.
  const [asked, setAsked] = useState<string[]>([]);
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");

  const fail = (e: unknown, retry?: () => void) => {
    const key = refusal(e);
    if (key) return setFatal(key);
    const missing = missingFields(e).filter(
      (f) => f === "customer_last_name" || f === "customer_email",
    );
    if (missing.length > 0) return setAsked(missing);
    setNotice({ ...describe(t, e), retry });
  };

  const load = () => {
    if (!token) return;
    setNotice(null);
    loadOffer(api, token)
      .then(setOffer)
      .catch((e) => fail(e, load));
  };
  useEffect(load, []);
  const face = faceOfSalon(offer?.salon);
  useEffect(() => applyAccent(face?.accent_color), [face?.accent_color]);

  const book = (event?: Event) => {
    event?.preventDefault();
    if (!token || busy) return;
    setBusy(true);
    setNotice(null);
    bookOffer(api, token, {
      ...(lastName.trim() ? { customer_last_name: lastName.trim() } : {}),
      ...(email.trim() ? { customer_email: email.trim() } : {}),
    })
      .then((answer) => setJustBooked(bookingOf(answer)))
      .catch((e) => fail(e, book))
      .finally(() => setBusy(false));
  };

  if (fatal)
    return (
      <Frame face={face}>
        <section>
          <Heading>{t("offer.ended_heading")}</Heading>
          <Notice notice={{ kind: "error", message: t(fatal) }} />
        </section>
      </Frame>
    );
  if (!offer)
    return (
      <section>
        <Heading>{t("offer.heading")}</Heading>
        {notice ? <Notice notice={notice} /> : <p role="status">{t("common.loading")}</p>}
      </section>
    );
  const services = (
    <ul>
      {offer.services.map((s) => (
        <li key={s.service_uuid + s.starts_at}>
          {s.name}
          {s.staffer_first_name ? ` · ${s.staffer_first_name}` : ""}
        </li>
      ))}
    </ul>
  );
  const booking = justBooked ?? (offer.status === "booked" ? (offer.booking ?? null) : null);
  if (booking) {
    const at = formatFullDateTime(booking.start_time, format, offer.timezone);
    return (
      <Frame face={face}>
        <section>
          <Heading>{t("offer.yours_heading")}</Heading>
          {justBooked ? (
            <Notice notice={{ kind: "done", message: t("offer.booked", { when: at }) }} />
          ) : (
            <p>{t("offer.yours")}</p>
          )}
          <dl class="facts">
            <dt>{t("manage.services")}</dt>
            <dd>{services}</dd>
            <dt>{t("manage.when")}</dt>
            <dd data-start={booking.start_time}>{at}</dd>
          </dl>
          <p class="hint">{t("manage.salon_zone", { zone: offer.timezone })}</p>
          {booking.manage_url && (
            <p class="actions">
              <a class="button primary" href={booking.manage_url}>
                {t("offer.manage")}
              </a>
            </p>
          )}
        </section>
      </Frame>
    );
  }
  const when = formatFullDateTime(offer.start, format, offer.timezone);
  return (
    <Frame face={face}>
      <section>
        <Heading>{t("offer.heading")}</Heading>
        <dl class="facts">
          <dt>{t("manage.services")}</dt>
          <dd>{services}</dd>
          <dt>{t("manage.when")}</dt>
          <dd data-start={offer.start}>{when}</dd>
        </dl>
        <p class="hint">{t("manage.salon_zone", { zone: offer.timezone })}</p>
        <p>
          {t("offer.held_until", { time: formatTime(offer.expires_at, format, offer.timezone) })}
        </p>
        {notice && <Notice notice={notice} />}
        <form onSubmit={book}>
          {asked.includes("customer_last_name") && (
            <label class="field">
              <span>{t("offer.last_name")}</span>
              <input
                required
                autocomplete="family-name"
                value={lastName}
                onInput={(e) => setLastName(e.currentTarget.value)}
              />
            </label>
          )}
          {asked.includes("customer_email") && (
            <label class="field">
              <span>{t("offer.email")}</span>
              <input
                type="email"
                required
                autocomplete="email"
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
            </label>
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? t("offer.booking") : t("offer.book")}
            </button>
          </div>
        </form>
      </section>
    </Frame>
  );
}

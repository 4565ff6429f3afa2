import { useEffect, useState } from "preact/hooks";
import type { Client } from "../api";
import { describe } from "../failure";
import { useI18n } from "../i18n/context";
import type { MessageKey } from "../i18n/messages";
import { Heading } from "../steps/Heading";
import { Notice, type NoticeState } from "../steps/Notice";
import { formatFullDateTime, formatTime } from "../time";
import { bookOffer, loadOffer, missingFields, refusal } from "./flow";
import type { OfferView } from "./types";

/** One waitlist offer, opened by the link in a customer's message: see the time, book it. */
export function OfferPage(props: { api: Client; token: string | null }) {
  const { api, token } = props;
  const { t, format } = useI18n();
  const [offer, setOffer] = useState<OfferView | null>(null);
  const [fatal, setFatal] = useState<MessageKey | null>(token ? null : "offer.no_token");
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState(false);
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

  const book = (event?: Event) => {
    event?.preventDefault();
    if (!token || busy) return;
    setBusy(true);
    setNotice(null);
    bookOffer(api, token, {
      ...(lastName.trim() ? { customer_last_name: lastName.trim() } : {}),
      ...(email.trim() ? { customer_email: email.trim() } : {}),
    })
      .then(() => setBooked(true))
      .catch((e) => fail(e, book))
      .finally(() => setBusy(false));
  };

  if (fatal) return <Notice notice={{ kind: "error", message: t(fatal) }} />;
  if (!offer) return notice ? <Notice notice={notice} /> : <p class="hint">…</p>;
  const when = formatFullDateTime(offer.start, format, offer.timezone);
  if (booked) {
    return (
      <section>
        <Heading>{t("offer.heading")}</Heading>
        <Notice notice={{ kind: "done", message: t("offer.booked", { when }) }} />
      </section>
    );
  }
  return (
    <section>
      <Heading>{t("offer.heading")}</Heading>
      <dl class="facts">
        <dt>{t("manage.services")}</dt>
        <dd>
          <ul>
            {offer.services.map((s) => (
              <li key={s.service_uuid + s.starts_at}>
                {s.name}
                {s.staffer_first_name ? ` · ${s.staffer_first_name}` : ""}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t("manage.when")}</dt>
        <dd data-start={offer.start}>{when}</dd>
      </dl>
      <p class="hint">{t("manage.salon_zone", { zone: offer.timezone })}</p>
      <p>{t("offer.held_until", { time: formatTime(offer.expires_at, format, offer.timezone) })}</p>
      {notice && <Notice notice={notice} />}
      <form onSubmit={book}>
        {asked.includes("customer_last_name") && (
          <label>
            {t("offer.last_name")}
            <input required value={lastName} onInput={(e) => setLastName(e.currentTarget.value)} />
          </label>
        )}
        {asked.includes("customer_email") && (
          <label>
            {t("offer.email")}
            <input
              type="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
        )}
        <button type="submit" disabled={busy}>
          {busy ? t("offer.booking") : t("offer.book")}
        </button>
      </form>
    </section>
  );
}

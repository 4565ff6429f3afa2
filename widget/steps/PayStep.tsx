import { useI18n } from "../i18n/context";
import { payAction, policySentences } from "../pay/terms";
import { formatWhen } from "../time";
import type { PaymentTerms } from "../types";
import { Countdown } from "./Countdown";
import { Heading } from "./Heading";

/** What the salon asks for online before the booking, and the button to the provider's page. */
export function PayStep(props: {
  terms: PaymentTerms;
  /** What is being booked, as the details step says it. */
  what: string;
  start: string;
  expiresAt: string;
  busy: boolean;
  onExpire: () => void;
  onPay: () => void;
  onBack: () => void;
}) {
  const { t, format } = useI18n();
  const policy = policySentences(props.terms, format, t);
  return (
    <section>
      <Heading>{t("pay.heading")}</Heading>
      <p class="summary">
        <strong>{props.what}</strong>
        <br />
        {formatWhen(props.start, format)}
      </p>
      <Countdown expiresAt={props.expiresAt} onExpire={props.onExpire} />
      {props.terms.mode === "card_on_file" && <p>{t("pay.card_note")}</p>}
      {policy.length > 0 && <p class="policy">{policy.join(" ")}</p>}
      <p class="hint">{t("pay.provider_note")}</p>
      <div class="actions">
        <button type="button" onClick={props.onBack} disabled={props.busy}>
          {t("common.back")}
        </button>
        <button type="button" class="primary" onClick={props.onPay} disabled={props.busy}>
          {props.busy ? t("pay.opening") : payAction(props.terms, format, t)}
        </button>
      </div>
    </section>
  );
}

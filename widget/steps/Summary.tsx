import { useI18n } from "../i18n/context";
import { choiceTotals } from "../summary";
import { formatWhen } from "../time";
import type { PaymentTerms, Service } from "../types";

/**
 * The choice so far, in view from the staffer step on and again on the confirmation. It
 * sits in the flow above the step (never a sticky layer that could cover the focus).
 */
export function Summary(props: {
  services: Service[];
  seats: Record<string, number>;
  /** The staffer's name; null: anyone available. */
  staffer: string | null;
  start: string | null;
  payment: PaymentTerms | null;
  /** A package pays: the price row says so ("Paid with your package") instead of a sum. */
  covered?: string;
  /** The confirmation's own heading level: its summary is a part of it. */
  level?: 2 | 3;
}) {
  const { t, format } = useI18n();
  const totals = choiceTotals(props.services, props.seats, props.payment, format, (price) =>
    t("services.from_price", { price }),
  );
  const Title = props.level === 3 ? "h3" : "h2";
  return (
    <aside class="summary-panel" aria-labelledby="summary-title">
      <Title id="summary-title" class="summary-title">
        {t("summary.heading")}
      </Title>
      <dl class="facts">
        <dt>{t("summary.services")}</dt>
        <dd>
          <ul>
            {props.services.map((s) => (
              <li key={s.uuid}>
                {(props.seats[s.uuid] ?? 1) > 1
                  ? t("summary.party", { service: s.name, seats: String(props.seats[s.uuid]) })
                  : s.name}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t("summary.staffer")}</dt>
        <dd>{props.staffer ?? t("summary.any_staffer")}</dd>
        {props.start && (
          <>
            <dt>{t("summary.when")}</dt>
            <dd data-start={props.start}>{formatWhen(props.start, format)}</dd>
          </>
        )}
        {totals.duration && (
          <>
            <dt>{t("summary.duration")}</dt>
            <dd>{totals.duration}</dd>
          </>
        )}
        {(props.covered ?? totals.price) && (
          <>
            <dt>{t("summary.price")}</dt>
            <dd>{props.covered ?? totals.price}</dd>
          </>
        )}
        {totals.dueNow && (
          <>
            <dt>{t("summary.due_now")}</dt>
            <dd>{totals.dueNow}</dd>
          </>
        )}
      </dl>
    </aside>
  );
}

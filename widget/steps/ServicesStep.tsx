import { useI18n } from "../i18n/context";
import { serviceTerms } from "../service-terms";
import type { Service } from "../types";
import { Heading } from "./Heading";

export function ServicesStep(props: {
  services: Service[];
  selected: string[];
  onToggle: (uuid: string) => void;
  /** Party size per group service (capacity > 1). */
  seats: Record<string, number>;
  onSeats: (uuid: string, seats: number) => void;
  onNext: () => void;
  /** A package pays for every service shown: said in place of each price. */
  covered?: string;
}) {
  const { services, selected, seats } = props;
  const { t, format } = useI18n();
  return (
    <section aria-labelledby="step">
      <Heading>{t("services.heading")}</Heading>
      {services.length === 0 ? (
        <p>{t("services.none")}</p>
      ) : (
        <fieldset>
          <legend>{t("services.legend")}</legend>
          {services.map((s) => {
            const terms = props.covered
              ? [serviceTerms({ ...s, is_price_hidden: true }, format), props.covered]
                  .filter(Boolean)
                  .join(" · ")
              : serviceTerms(s, format, (price) => t("services.from_price", { price }));
            return (
              <div key={s.uuid}>
                <label class="choice">
                  <input
                    type="checkbox"
                    name="service"
                    value={s.uuid}
                    checked={selected.includes(s.uuid)}
                    onChange={() => props.onToggle(s.uuid)}
                  />
                  <span class="choice-name">{s.name}</span>
                  {terms && <span class="choice-meta">{terms}</span>}
                </label>
                {(s.capacity ?? 1) > 1 && selected.includes(s.uuid) && (
                  <PartySize
                    name={s.name}
                    max={s.capacity ?? 1}
                    value={seats[s.uuid] ?? 1}
                    onChange={(n) => props.onSeats(s.uuid, n)}
                  />
                )}
              </div>
            );
          })}
        </fieldset>
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={selected.length === 0}
          onClick={props.onNext}
        >
          {t("common.continue")}
        </button>
      </div>
    </section>
  );
}

/** A group service's party size: how many seats of the session to book (1..capacity). */
function PartySize(props: {
  name: string;
  max: number;
  value: number;
  onChange: (seats: number) => void;
}) {
  const { t } = useI18n();
  return (
    <span class="choice-meta party-size">
      {t("services.party_size")}{" "}
      <select
        aria-label={t("services.party_size_for", { service: props.name })}
        value={String(props.value)}
        onChange={(e) => props.onChange(Number((e.target as HTMLSelectElement).value))}
      >
        {Array.from({ length: props.max }, (_, i) => i + 1).map((n) => (
          <option key={n} value={String(n)}>
            {n}
          </option>
        ))}
      </select>
    </span>
  );
}

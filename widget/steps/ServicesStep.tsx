import { useI18n } from "../i18n/context";
import { serviceTerms } from "../service-terms";
import type { Service } from "../types";
import { Heading } from "./Heading";

export function ServicesStep(props: {
  services: Service[];
  selected: string[];
  onToggle: (uuid: string) => void;
  onNext: () => void;
}) {
  const { services, selected } = props;
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
            const terms = serviceTerms(s, format, (price) => t("services.from_price", { price }));
            return (
              <label class="choice" key={s.uuid}>
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

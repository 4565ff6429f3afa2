import { useI18n } from "../i18n/context";
import type { Staffer } from "../types";
import { Heading } from "./Heading";

export function StafferStep(props: {
  staffers: Staffer[];
  selected: string;
  onSelect: (uuid: string) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const { t } = useI18n();
  const options = [
    { uuid: "", name: t("staffer.anyone") },
    ...props.staffers.map((s) => ({
      uuid: s.uuid,
      name: [s.first_name, s.last_name].filter(Boolean).join(" "),
    })),
  ];
  return (
    <section>
      <Heading>{t("staffer.heading")}</Heading>
      <fieldset>
        <legend>{t("staffer.legend")}</legend>
        {options.map((o) => (
          <label class="choice" key={o.uuid || "anyone"}>
            <input
              type="radio"
              name="staffer"
              value={o.uuid}
              checked={props.selected === o.uuid}
              onChange={() => props.onSelect(o.uuid)}
            />
            <span class="choice-name">{o.name}</span>
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          {t("common.back")}
        </button>
        <button type="button" class="primary" onClick={props.onNext}>
          {t("common.continue")}
        </button>
      </div>
    </section>
  );
}

import { useI18n } from "../i18n/context";
import { addDays } from "../time";

/** The day whose free times are shown: a date field between a previous and a next day button. */
export function DateRow(props: {
  date: string;
  today: string;
  label: string;
  onDate: (date: string) => void;
}) {
  const { t } = useI18n();
  return (
    <div class="date-row">
      <button
        type="button"
        aria-label={t("slot.previous_day")}
        disabled={props.date <= props.today}
        onClick={() => props.onDate(addDays(props.date, -1))}
      >
        ‹
      </button>
      <label class="field">
        <span>{props.label}</span>
        <input
          type="date"
          name="date"
          min={props.today}
          value={props.date}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v) props.onDate(v < props.today ? props.today : v);
          }}
        />
      </label>
      <button
        type="button"
        aria-label={t("slot.next_day")}
        onClick={() => props.onDate(addDays(props.date, 1))}
      >
        ›
      </button>
    </div>
  );
}

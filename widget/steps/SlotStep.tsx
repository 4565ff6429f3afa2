import { useI18n } from "../i18n/context";
import { formatDateTime, formatTime } from "../time";
import type { Alternative, SlotChoice } from "../types";
import { DateRow } from "./DateRow";
import { Heading } from "./Heading";

export function SlotStep(props: {
  date: string;
  today: string;
  slots: SlotChoice[] | null;
  cart: boolean;
  alternatives: Alternative[];
  busy: boolean;
  onDate: (date: string) => void;
  onPick: (slot: SlotChoice) => void;
  onBack: () => void;
}) {
  const { slots } = props;
  const { t, format } = useI18n();
  return (
    <section>
      <Heading>{t("slot.heading")}</Heading>
      {props.alternatives.length > 0 && (
        <div class="alternatives">
          <h3>{t("slot.free_instead")}</h3>
          <ul class="slots" aria-label={t("slot.other_free_times")}>
            {props.alternatives.map((a) => (
              <li key={a.start + (a.staffer_uuid ?? "")}>
                <button type="button" disabled={props.busy} onClick={() => props.onPick(a)}>
                  {formatDateTime(a.start, format)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <DateRow
        date={props.date}
        today={props.today}
        label={t(props.cart ? "slot.from_date" : "slot.date")}
        onDate={props.onDate}
      />
      <p class="hint">{t("slot.your_zone")}</p>
      {slots === null ? (
        <p role="status">{t("slot.searching")}</p>
      ) : slots.length === 0 ? (
        <p role="status">{t("slot.none")}</p>
      ) : (
        <ul class="slots" aria-label={t("slot.free_times")} data-date={props.date}>
          {slots.map((s) => (
            <li key={s.start}>
              <button type="button" disabled={props.busy} onClick={() => props.onPick(s)}>
                {props.cart ? formatDateTime(s.start, format) : formatTime(s.start, format)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          {t("common.back")}
        </button>
      </div>
    </section>
  );
}

import { useI18n } from "../i18n/context";
import { DateRow } from "../steps/DateRow";
import { Heading } from "../steps/Heading";
import { formatClock, formatDateTime, formatFullDateTime } from "../time";
import type { Alternative, SlotChoice } from "../types";

/**
 * Picking the booking's new time: one day of the salon's calendar at a time, its times in
 * the language's own clock style as the booking widget shows them ("9:15 AM", "09:15").
 */
export function MoveStep(props: {
  zone: string;
  date: string;
  today: string;
  slots: SlotChoice[] | null;
  alternatives: Alternative[];
  chosen: SlotChoice | null;
  busy: boolean;
  onDate: (date: string) => void;
  onChoose: (slot: SlotChoice) => void;
  onMove: () => void;
  onBack: () => void;
}) {
  const { t, format } = useI18n();
  const { slots, zone, chosen } = props;
  const pickable = (s: SlotChoice, label: string) => (
    <li key={s.start}>
      <button
        type="button"
        disabled={props.busy}
        aria-pressed={chosen?.start === s.start}
        class={chosen?.start === s.start ? "primary" : undefined}
        onClick={() => props.onChoose(s)}
      >
        {label}
      </button>
    </li>
  );
  return (
    <section>
      <Heading>{t("manage.move_heading")}</Heading>
      {props.alternatives.length > 0 && (
        <div class="alternatives">
          <h3>{t("slot.free_instead")}</h3>
          <ul class="slots" aria-label={t("slot.other_free_times")}>
            {props.alternatives.map((a) => pickable(a, formatDateTime(a.start, format, zone)))}
          </ul>
        </div>
      )}
      <DateRow date={props.date} today={props.today} label={t("slot.date")} onDate={props.onDate} />
      <p class="hint">{t("manage.salon_zone", { zone })}</p>
      {slots === null ? (
        <p role="status">{t("slot.searching")}</p>
      ) : slots.length === 0 ? (
        <p role="status">{t("slot.none")}</p>
      ) : (
        <ul class="slots" aria-label={t("slot.free_times")} data-date={props.date}>
          {slots.map((s) => pickable(s, formatClock(s.start, format, zone)))}
        </ul>
      )}
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          {t("common.back")}
        </button>
        {chosen && (
          <button type="button" class="primary" disabled={props.busy} onClick={props.onMove}>
            {props.busy
              ? t("manage.moving")
              : t("manage.move_to", { when: formatFullDateTime(chosen.start, format, zone) })}
          </button>
        )}
      </div>
    </section>
  );
}

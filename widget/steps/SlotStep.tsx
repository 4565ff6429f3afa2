import { useMemo } from "preact/hooks";
import { useI18n } from "../i18n/context";
import { formatLongDay, formatWhen } from "../time";
import type { Alternative, SlotChoice } from "../types";
import { Heading } from "./Heading";
import { MonthGrid } from "./MonthGrid";
import { TimeGrid } from "./TimeGrid";

export function SlotStep(props: {
  month: string;
  today: string;
  /** The month's free starts by day; null while it is being searched. */
  days: Map<string, SlotChoice[]> | null;
  date: string | null;
  /** Months looked ahead without a free day (0: one was found). */
  emptyMonths: number;
  cart: boolean;
  alternatives: Alternative[];
  busy: boolean;
  onMonth: (month: string) => void;
  onDate: (date: string) => void;
  onPick: (slot: SlotChoice) => void;
  onBack: () => void;
}) {
  const { days, date } = props;
  const { t, format } = useI18n();
  const slots = date ? (days?.get(date) ?? []) : [];
  const free = useMemo(() => (days ? new Set(days.keys()) : null), [days]);
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
                  {formatWhen(a.start, format)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <MonthGrid
        month={props.month}
        today={props.today}
        free={free}
        selected={date}
        onMonth={props.onMonth}
        onDate={props.onDate}
      />
      <p class="hint">
        {t("slot.keys_hint")} {t("slot.your_zone")}
      </p>
      {days === null ? (
        <p role="status">{t("slot.searching")}</p>
      ) : props.emptyMonths > 0 ? (
        <p role="status">{t("slot.none_ahead", { months: String(props.emptyMonths) })}</p>
      ) : !date || slots.length === 0 ? (
        <p role="status">{t("slot.none_in_month")}</p>
      ) : (
        <div class="times">
          <h3>
            {t(props.cart ? "slot.first_start_on" : "slot.times_on", {
              day: formatLongDay(date, format),
            })}
          </h3>
          <TimeGrid date={date} slots={slots} busy={props.busy} onPick={props.onPick} />
        </div>
      )}
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          {t("common.back")}
        </button>
      </div>
    </section>
  );
}

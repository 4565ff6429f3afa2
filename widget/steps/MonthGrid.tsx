import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import { LAST_MONTH_AHEAD } from "../flow";
import { addMonths, firstDayOfWeek, monthOf, monthWeeks, moveIndex } from "../month";
import { formatLongDay, formatMonth, weekdayNames } from "../time";

/**
 * A month as a calendar grid: ‹ › between months, each day a button saying whether it has
 * free times. The grid is one Tab stop; the arrow keys move between its days (a week up
 * or down, Home/End to the week's ends), Enter or Space picks one.
 */
export function MonthGrid(props: {
  month: string;
  today: string;
  /** Days with free time; null while the month is being searched. */
  free: ReadonlySet<string> | null;
  selected: string | null;
  onMonth: (month: string) => void;
  onDate: (date: string) => void;
}) {
  const { t, format } = useI18n();
  const { month, today, free, selected } = props;
  const firstDay = useMemo(() => firstDayOfWeek(format), [format]);
  const weeks = useMemo(() => monthWeeks(month, firstDay), [month, firstDay]);
  const names = useMemo(() => weekdayNames(format), [format]);
  const cells = weeks.flat();
  const days = cells.filter((d): d is string => d !== null);
  const isFree = (d: string) => d >= today && (free?.has(d) ?? false);
  // The day the grid's Tab stop sits on: the chosen one, else the first free, else today or the 1st.
  const home =
    (selected && monthOf(selected) === month ? selected : null) ??
    days.find(isFree) ??
    (monthOf(today) === month ? today : days[0]);
  const [focused, setFocused] = useState<string | undefined>(home);
  const moved = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  useEffect(() => setFocused(home), [month, selected, free]);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const onKey = (e: KeyboardEvent) => {
    const at = cells.indexOf(focused ?? null);
    if (at < 0) return;
    const lead = cells.indexOf(days[0] ?? null);
    const last = cells.indexOf(days[days.length - 1] ?? null);
    const next = moveIndex(e.key, at, cells.length, 7, "row");
    if (next === null) return;
    e.preventDefault();
    const day = cells[Math.min(last, Math.max(lead, next))];
    if (day) {
      moved.current = true;
      setFocused(day);
    }
  };

  const title = `month-${month}`;
  return (
    <div class="month">
      <div class="month-nav">
        <button
          type="button"
          aria-label={t("slot.previous_month")}
          disabled={month <= monthOf(today)}
          onClick={() => props.onMonth(addMonths(month, -1))}
        >
          ‹
        </button>
        <h3 id={title} aria-live="polite">
          {formatMonth(month, format)}
        </h3>
        <button
          type="button"
          aria-label={t("slot.next_month")}
          disabled={month >= addMonths(monthOf(today), LAST_MONTH_AHEAD)}
          onClick={() => props.onMonth(addMonths(month, 1))}
        >
          ›
        </button>
      </div>
      <table role="grid" class="calendar" aria-labelledby={title} ref={grid} onKeyDown={onKey}>
        <thead>
          <tr>
            {Array.from({ length: 7 }, (_, i) => names[(firstDay - 1 + i) % 7]).map((n) => (
              <th scope="col" key={n?.long} abbr={n?.long}>
                {n?.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((d, i) =>
                d === null ? (
                  <td key={`blank-${i}`} />
                ) : (
                  <td key={d} aria-selected={d === selected}>
                    <button
                      type="button"
                      data-date={d}
                      tabIndex={d === focused ? 0 : -1}
                      class={[
                        "day",
                        isFree(d) ? "day-free" : "",
                        d === selected ? "day-selected" : "",
                        d === today ? "day-today" : "",
                      ].join(" ")}
                      aria-label={
                        free === null
                          ? formatLongDay(d, format)
                          : t(isFree(d) ? "slot.day_free" : "slot.day_full", {
                              day: formatLongDay(d, format),
                            })
                      }
                      aria-disabled={isFree(d) ? undefined : true}
                      aria-current={d === today ? "date" : undefined}
                      onClick={() => {
                        setFocused(d);
                        if (isFree(d)) props.onDate(d);
                      }}
                    >
                      {Number(d.slice(8))}
                    </button>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { useEffect, useRef, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import { moveIndex } from "../month";
import { formatClock } from "../time";
import type { SlotChoice } from "../types";

/** How many buttons the first row holds (the grid's columns follow the screen's width). */
function columnsOf(list: HTMLElement | null): number {
  const buttons = [...(list?.querySelectorAll<HTMLElement>("button") ?? [])];
  const top = buttons[0]?.offsetTop;
  return Math.max(1, buttons.filter((b) => b.offsetTop === top).length);
}

/**
 * A day's free times as a grid of buttons that is ONE Tab stop (roving tabindex): the arrow
 * keys move between times (Up/Down a row), Home/End to the first and last, Enter or Space
 * picks. Times read as the customer's language writes them.
 */
export function TimeGrid(props: {
  date: string;
  slots: SlotChoice[];
  busy: boolean;
  onPick: (slot: SlotChoice) => void;
}) {
  const { t, format } = useI18n();
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => setActive(0), [props.date, props.slots]);
  const onKey = (e: KeyboardEvent) => {
    const next = moveIndex(e.key, active, props.slots.length, columnsOf(list.current));
    if (next === null) return;
    e.preventDefault();
    setActive(next);
    list.current?.querySelectorAll<HTMLElement>("button")[next]?.focus();
  };
  return (
    <ul
      class="slots"
      ref={list}
      aria-label={t("slot.free_times")}
      data-date={props.date}
      onKeyDown={onKey}
    >
      {props.slots.map((s, i) => (
        <li key={s.start}>
          <button
            type="button"
            tabIndex={i === active ? 0 : -1}
            disabled={props.busy}
            onFocus={() => setActive(i)}
            onClick={() => props.onPick(s)}
          >
            {formatClock(s.start, format)}
          </button>
        </li>
      ))}
    </ul>
  );
}

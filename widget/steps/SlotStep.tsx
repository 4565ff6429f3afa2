import { addDays, formatDateTime, formatTime } from "../time";
import type { Alternative, SlotChoice } from "../types";
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
  return (
    <section>
      <Heading>Pick a time</Heading>
      {props.alternatives.length > 0 && (
        <div class="alternatives">
          <h3>Free instead</h3>
          <ul class="slots" aria-label="Other free times">
            {props.alternatives.map((a) => (
              <li key={a.start + (a.staffer_uuid ?? "")}>
                <button type="button" disabled={props.busy} onClick={() => props.onPick(a)}>
                  {formatDateTime(a.start)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div class="date-row">
        <button
          type="button"
          aria-label="Previous day"
          disabled={props.date <= props.today}
          onClick={() => props.onDate(addDays(props.date, -1))}
        >
          ‹
        </button>
        <label class="field">
          <span>{props.cart ? "From" : "Date"}</span>
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
          aria-label="Next day"
          onClick={() => props.onDate(addDays(props.date, 1))}
        >
          ›
        </button>
      </div>
      <p class="hint">Times are shown in your time zone.</p>
      {slots === null ? (
        <p role="status">Looking for free times…</p>
      ) : slots.length === 0 ? (
        <p role="status">No free times on this day. Try another date.</p>
      ) : (
        <ul class="slots" aria-label="Free times" data-date={props.date}>
          {slots.map((s) => (
            <li key={s.start}>
              <button type="button" disabled={props.busy} onClick={() => props.onPick(s)}>
                {props.cart ? formatDateTime(s.start) : formatTime(s.start)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" onClick={props.onBack}>
          Back
        </button>
      </div>
    </section>
  );
}

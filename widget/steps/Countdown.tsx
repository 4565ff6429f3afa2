import { useEffect, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";

/** How long the reservation still holds the slot; calls onExpire once at zero. */
export function Countdown({ expiresAt, onExpire }: { expiresAt: string; onExpire: () => void }) {
  const end = Date.parse(expiresAt);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((end - now) / 1000));
  useEffect(() => {
    if (left === 0) onExpire();
  }, [left === 0]);
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  // The time sits where the language puts it, in bold.
  const [before, after] = useI18n().t("details.hold", { time: "{time}" }).split("{time}");
  return (
    <p class="countdown" role="timer" aria-live="off">
      {before}
      <strong>{text}</strong>
      {after}
    </p>
  );
}

import { useEffect, useState } from "preact/hooks";

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
  return (
    <p class="countdown" role="timer" aria-live="off">
      We hold this time for you for <strong>{text}</strong>.
    </p>
  );
}

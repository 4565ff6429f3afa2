import type { Env } from "../platform/env";
import type { EventRow } from "./queries/outbox";

/**
 * Work a module above webhooks does for every outbox event, as the queue fans it out
 * (Reserve with Google tells Google of bookings changed here). Webhooks may not import
 * those modules, so the composition root (src/app/app.ts) installs it (`listenToEventsWith`).
 * It runs after the webhooks' own fan-out, at least once per event (a failed fan-out runs
 * again), so it must be cheap and may repeat: it only queues its own work. Its failure is
 * logged and swallowed (the event is acknowledged): no listener may cost a webhook delivery,
 * so what it loses must be repaired its own way.
 */
export type EventListener = (env: Env, event: EventRow) => Promise<void>;

let installed: EventListener = () => Promise.resolve();

/** Installs the listener (the composition root calls it once). */
export const listenToEventsWith = (listener: EventListener) => {
  installed = listener;
};

export const eventListener = (): EventListener => installed;

import { newId, nowSeconds } from "./ids";
import type { StripeEvent } from "./objects";
import type { Outbox } from "./webhooks-out";

/** The API version events claim: the one the stripe package v23 pins. */
export const API_VERSION = "2026-10-28.endive";

export interface EventRequest {
  id: string | null;
  idempotency_key: string | null;
}

export const NO_REQUEST: EventRequest = { id: null, idempotency_key: null };

/** Emits an event carrying a snapshot of `object` as it is now (Stripe's events do the same). */
export function emitEvent(
  outbox: Outbox,
  type: string,
  object: unknown,
  request: EventRequest = NO_REQUEST,
): StripeEvent {
  const event: StripeEvent = {
    id: newId("evt"),
    object: "event",
    api_version: API_VERSION,
    created: nowSeconds(),
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request,
    type,
  };
  outbox.add(event);
  return event;
}

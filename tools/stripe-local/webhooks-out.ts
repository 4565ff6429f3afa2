import type { StripeEvent } from "./objects";
import { signPayload } from "./signing";
import { workspaceOf } from "./state";

/** A signed event as the tests take it from GET /_local/deliveries. */
export interface Delivery {
  id: string;
  type: string;
  payload: string;
  signature: string;
}

interface Pending {
  event: StripeEvent;
  payload: string;
  workspace: string | null;
  taken: boolean;
}

export interface OutboxOptions {
  secret: string;
  /** Where to POST events; without it they wait for GET /_local/deliveries. */
  url?: string;
  /** Waits between attempts; Stripe backs off over days, a local run over seconds. */
  retryDelaysMs?: number[];
  /** Told of every delivery attempt (main.ts logs them). */
  onAttempt?: (attempt: { event: string; type: string; attempt: number; status: number }) => void;
}

/** Events leaving the fake: POSTed to the webhook URL (with retries) or kept for the tests. */
export class Outbox {
  private readonly pending: Pending[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Every delivery attempt to the URL: event id, attempt number, status (0: no answer). */
  readonly attempts: { event: string; attempt: number; status: number }[] = [];

  constructor(private readonly options: OutboxOptions) {}

  add(event: StripeEvent) {
    const payload = JSON.stringify(event, null, 2);
    const entry: Pending = {
      event,
      payload,
      workspace: workspaceOf(event.data.object),
      taken: false,
    };
    this.pending.push(entry);
    if (this.options.url) {
      entry.taken = true;
      void this.deliver(entry, 0);
    }
  }

  /** The deliveries of one workspace not taken yet, now marked taken (signed as of now). */
  take(workspace: string): Delivery[] {
    const out: Delivery[] = [];
    for (const entry of this.pending) {
      if (entry.taken || entry.workspace !== workspace) continue;
      entry.taken = true;
      out.push({
        id: entry.event.id,
        type: entry.event.type,
        payload: entry.payload,
        signature: signPayload(entry.payload, this.options.secret),
      });
    }
    return out;
  }

  close() {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async deliver(entry: Pending, attempt: number): Promise<void> {
    if (this.closed || !this.options.url) return;
    let status = 0;
    try {
      const res = await fetch(this.options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": signPayload(entry.payload, this.options.secret),
        },
        body: entry.payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.body?.cancel();
    } catch {
      // No answer (refused, timed out): status stays 0, retried below.
    }
    this.attempts.push({ event: entry.event.id, attempt: attempt + 1, status });
    this.options.onAttempt?.({
      event: entry.event.id,
      type: entry.event.type,
      attempt: attempt + 1,
      status,
    });
    if (status >= 200 && status < 300) return;
    const delays = this.options.retryDelaysMs ?? [1_000, 5_000, 30_000, 120_000];
    const delay = delays[attempt];
    if (delay === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.deliver(entry, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}

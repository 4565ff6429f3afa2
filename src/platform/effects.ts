import type { Env } from "./env";

/**
 * What a committed write leaves for others to act on once the answer is out:
 * an outbox event for the webhook queue, a customer message for the message
 * queue (or its workspace's clock, when it is due later), time it freed for
 * the location's waitlist desk, a canceled booking's online money to settle.
 * The write's own statements say what they produce (see `db/effects.ts`);
 * nothing reads D1 afterwards to find out.
 */
export type Effect =
  | { kind: "event"; workspaceId: string; eventId: string }
  | { kind: "message"; workspaceId: string; messageId: string; dueAt: number }
  | {
      kind: "freed";
      workspaceId: string;
      locationId: string;
      stafferId: string | null;
      startsAt: number;
      endsAt: number;
      /** When the time is free to offer: now for removed time, a hold's expiry for a hold. */
      dueAt: number;
    }
  /**
   * A booking paid online was canceled: its refund or fee is settled with the
   * provider. A customer's cancel names its visitor (the fee's message is
   * bounded as that customer's) and the request's origin (the message's links).
   */
  | {
      kind: "payment-settlement";
      workspaceId: string;
      bookingId: string;
      cause: { visitor?: string | undefined; origin?: string | undefined };
    }
  /**
   * A location's zone changed: the days of its future bookings and calendar
   * time move with it, so its report rollups are rebuilt from the raw rows.
   */
  | { kind: "zone-changed"; workspaceId: string; locationId: string; at: number };

/**
 * Acts on effects after their write committed: the composition root's
 * `dispatchEffects`, handed to the Durable Objects that write outside a
 * request (so none of them imports the modules above it that act).
 */
export type Dispatch = (env: Env, effects: readonly Effect[]) => Promise<void>;

/**
 * The effects one request (or one background job) committed, in order. Only
 * batches that succeeded add to it, so a write that failed, or was retried,
 * hands over nothing of its failed tries.
 */
export class EffectSink {
  private effects: Effect[] = [];

  add(effects: readonly Effect[]): void {
    this.effects.push(...effects);
  }

  /** What was added so far; the sink starts empty again. */
  take(): Effect[] {
    const taken = this.effects;
    this.effects = [];
    return taken;
  }
}

import type { CheckoutSession, Metadata, StripeObject } from "./objects";

/** What the session was created with that Stripe does not echo back on the session object. */
export interface SessionExtras {
  lineItem: { name: string; unitAmount: number; quantity: number } | null;
  paymentIntentData: { setupFutureUsage: "off_session" | "on_session" | null; metadata: Metadata };
  timer: NodeJS.Timeout | null;
}

/** The money as the fake holds it, per workspace (GET /_local/ledger). */
export interface LedgerEntry {
  kind: "charge_succeeded" | "charge_failed" | "refund";
  workspace: string | null;
  payment_intent: string;
  amount: number;
  currency: string;
  id: string;
  source: "api" | "checkout" | "dashboard";
  created: number;
}

/** One /v1 request as received (GET /_local/requests). */
export interface RequestRecord {
  id: string;
  method: string;
  path: string;
  idempotency_key: string | null;
  params: unknown;
  status: number;
  violation: string | null;
  replayed: boolean;
  workspace: string | null;
  at: number;
}

export interface Fault {
  method: string;
  path: string;
  /**
   * before: fails without acting; after: acts (and keeps the answer), then fails; delay: only
   * waits; decline: a confirmed payment intent's charge is declined as card …0341's would be.
   */
  when: "before" | "after" | "delay" | "decline";
  times: number;
  delayMs: number;
  /** Only requests about this workspace's objects (test files share one server); null: any. */
  workspace: string | null;
}

/** All the fake's state: one account, in memory. */
export class State {
  readonly objects = new Map<string, StripeObject>();
  readonly sessionExtras = new Map<string, SessionExtras>();
  /** Payment methods whose later off-session charges are declined (card …0341). */
  readonly failingMethods = new Set<string>();
  readonly ledger: LedgerEntry[] = [];
  readonly requests: RequestRecord[] = [];
  faults: Fault[] = [];

  get<T extends StripeObject>(id: string, object: T["object"]): T | undefined {
    const found = this.objects.get(id);
    return found && found.object === object ? (found as T) : undefined;
  }

  put<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  session(id: string): CheckoutSession | undefined {
    return this.get<CheckoutSession>(id, "checkout.session");
  }
}

/** The workspace an object (or a params tree) belongs to: its metadata.workspace_id. */
export function workspaceOf(value: unknown): string | null {
  if (!value || typeof value !== "object") return null;
  const metadata = (value as { metadata?: unknown }).metadata;
  if (metadata && typeof metadata === "object") {
    const id = (metadata as Record<string, unknown>).workspace_id;
    if (typeof id === "string") return id;
  }
  return null;
}

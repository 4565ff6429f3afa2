import { nothing, type Read } from "../db/reads";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { UseCaseDeps } from "../http/deps";

/**
 * A POS order can be paid online (`POST /orders/{uuid}/checkout`); refunding
 * it must give that money back at the provider. The provider, its calls and
 * their records belong to src/payments, a module above pos: pos may not import
 * it. So pos declares here the little its refund asks, and the composition
 * root (src/app/app.ts) installs src/payments' answer (`refundOnlineWith`).
 * Until then no order is seen as paid online (nothing is given back there).
 */
export interface OnlineRefunds {
  /** What paid the order online (null: nothing did), read with the order for its refund. */
  paidWith(scope: Scope, orderId: string): Read<OnlinePayment | null>;
  /**
   * Statements for the refund's batch: the provider refund of `payment`
   * recorded as pending (sent after the batch commits, by `send`).
   */
  record(scope: Scope, payment: OnlinePayment, at: number): Statement[];
  /**
   * After the refund's batch: the provider call and its answer. Without an
   * answer the refund stays pending and the payments reconcile repeats it
   * under the same Idempotency-Key; it never throws for that.
   */
  send(deps: UseCaseDeps, orderId: string): Promise<void>;
}

/** The provider payment that paid an order: what it took. */
export interface OnlinePayment {
  /** The payment's record (its checkout), which the refund is written on. */
  id: string;
  amount: number;
}

const NONE: OnlineRefunds = {
  paidWith: () => nothing(null),
  record: () => [],
  send: async () => {},
};

let installed: OnlineRefunds = NONE;

/** Installs how online money is given back (the composition root calls it once). */
export const refundOnlineWith = (refunds: OnlineRefunds) => {
  installed = refunds;
};

export const onlineRefunds = (): OnlineRefunds => installed;

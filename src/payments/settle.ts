import { cancelFeeFrom } from "../catalogue/rules/payment-policy";
import { backgroundDb } from "../db/background";
import { isGuardFailure } from "../db/constraints";
import { collectingEffects } from "../db/effects";
import { configOf } from "../platform/config";
import { type Dispatch, EffectSink } from "../platform/effects";
import type { Env } from "../platform/env";
import { failpoint } from "../platform/failpoints";
import { log } from "../platform/log";
import type { OutcomeCause } from "./fee-message";
import { finishCall, missingFor } from "./ledger-calls";
import { stripeClient } from "./providers/stripe";
import type { NewLedgerRow } from "./queries/ledger";
import { claimSettlement, type SettlementRecord, settlementRead } from "./queries/settlement";
import { type FeeKind, type Settlement, settleCancel } from "./rules/cancel-settlement";

/** The Idempotency-Keys of a cancel's provider calls: one refund and one fee per booking, ever. */
export const refundKey = (bookingId: string) => `refund:${bookingId}:cancel`;
export const feeKey = (bookingId: string, kind: FeeKind) => `fee:${bookingId}:${kind}`;

export type SettleResult =
  | { settled: false; why: "unconfigured" | "no_payment" | "not_canceled" | "settled_before" }
  | { settled: true; rows: { kind: NewLedgerRow["kind"]; amount: number; status: string }[] };

/** What a cancel does with its booking's online money (`settleCancel`), as read. */
function settlementOf(read: SettlementRecord, now: number): Settlement {
  const { payment } = read;
  return settleCancel(
    {
      terms: payment.terms,
      paidOnline: payment.paidOnline,
      refunded: payment.refunded,
      // From the booking's start as it is now (a reschedule moves it), as the Booking shows it.
      cancelFeeFrom: cancelFeeFrom(payment.policy, read.startAt),
      hasSavedCard: missingFor("no_show_fee", payment) === null,
    },
    {
      canceledAt: read.canceledAt ?? now,
      canceledBy: read.canceledBy === "customer" ? "customer" : "staff",
      cancelReason: read.cancelReason ?? "canceled",
      chargeFee: read.chargeFee,
    },
  );
}

/** The ledger rows a cancel's settlement writes before any provider call. */
export function settlementRows(
  read: SettlementRecord,
  now: number,
  settlement: Settlement = settlementOf(read, now),
): NewLedgerRow[] {
  const { payment } = read;
  const row = (
    kind: NewLedgerRow["kind"],
    amount: number,
    idempotencyKey: string,
    failure: string | null,
  ): NewLedgerRow => ({
    id: crypto.randomUUID(),
    workspaceId: payment.workspaceId,
    bookingId: payment.bookingId,
    kind,
    amount,
    currency: payment.terms.currency,
    status: failure ? "failed" : "pending",
    provider: "stripe",
    providerRef: null,
    idempotencyKey,
    failureReason: failure,
    createdAt: now,
    updatedAt: now,
  });
  const { refund, charge } = settlement;
  return [
    ...(refund > 0
      ? [row("refund", refund, refundKey(payment.bookingId), missingFor("refund", payment))]
      : []),
    ...(charge
      ? [row(charge.kind, charge.amount, feeKey(payment.bookingId, charge.kind), charge.failure)]
      : []),
  ];
}

/**
 * Settles a canceled booking's online money: refunds what the cancel gives
 * back and charges the fee it costs. The claim and the ledger rows are one
 * batch (only one settler gets past the claim, so each fee is charged at
 * most once per booking however often this runs); then each call is made
 * under its row's key and its answer written. A declined card is a failed
 * row; the cancel stands. A call without an answer leaves its row pending
 * for the reconcile loop. Running it again for a settled booking does nothing.
 */
export async function settleCancelledBooking(
  env: Env,
  workspaceId: string,
  bookingId: string,
  dispatch?: Dispatch,
  cause: OutcomeCause = {},
): Promise<SettleResult> {
  const settings = configOf(env).stripe;
  if (!settings) {
    log("warn", "a canceled booking's payment waits: no STRIPE_SECRET_KEY", { bookingId });
    return { settled: false, why: "unconfigured" };
  }
  const handle = await backgroundDb(env, workspaceId);
  if (!handle) return { settled: false, why: "no_payment" };
  const sink = new EffectSink();
  const db = collectingEffects(handle.db, sink);
  const scope = { db, workspaceId };
  const read = await settlementRead(scope, bookingId);
  if (!read) return { settled: false, why: "no_payment" };
  if (!read.isCanceled) return { settled: false, why: "not_canceled" };
  if (read.payment.settledAt !== null) return { settled: false, why: "settled_before" };
  const now = Date.now();
  const settlement = settlementOf(read, now);
  const rows = settlementRows(read, now, settlement);
  // The fee kept out of the money paid online is revenue when the cancel is settled (0038's trigger).
  const feeKept = settlement.fee && settlement.fee.kept > 0 ? settlement.fee.kept : null;
  // The worker may stop anywhere: before the claim (the reconcile settles the cancel), or
  // after it, before any call (the reconcile makes the pending rows' calls).
  failpoint("payments.settle.before_claim", bookingId);
  try {
    await db.batch(claimSettlement(scope, bookingId, rows, now, feeKept));
  } catch (error) {
    if (isGuardFailure(error)) return { settled: false, why: "settled_before" };
    throw error;
  }
  failpoint("payments.settle.claimed", bookingId);
  const stripe = stripeClient(settings);
  const done: { kind: NewLedgerRow["kind"]; amount: number; status: string }[] = [];
  for (const row of rows) {
    let status: string = row.status ?? "pending";
    if (status === "pending") {
      try {
        status = await finishCall(db, stripe, row, read.payment, cause);
      } catch (error) {
        // The row stays pending: the reconcile loop repeats its call under the same key.
        log("error", "payment settlement call failed", { error, kind: row.kind, bookingId });
      }
    }
    done.push({ kind: row.kind, amount: row.amount, status });
  }
  await dispatch?.(env, sink.take());
  return { settled: true, rows: done };
}

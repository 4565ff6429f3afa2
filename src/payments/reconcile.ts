import { backgroundDb, eachWorkspaceOn, sweepEveryShard } from "../db/background";
import { collectingEffects } from "../db/effects";
import { configOf } from "../platform/config";
import { type Dispatch, EffectSink } from "../platform/effects";
import type { Env } from "../platform/env";
import { log } from "../platform/log";
import { finishCall, isSettlementKind } from "./ledger-calls";
import { stripeClient, type StripeSettings } from "./providers/stripe";
import { overdueCheckouts } from "./queries/checkouts";
import { overdueOrderCheckouts, stalePendingOrderRefunds } from "./queries/order-checkouts";
import { reconcileOrderCheckouts } from "./order-checkout/reconcile";
import { finishOrderRefund } from "./order-checkout/refund";
import { bookingPaymentsOf, stalePending, touchPending } from "./queries/ledger";
import { unsettledCancels } from "./queries/settlement";
import { settleCancelledBooking } from "./settle";
import { CHECKOUT_GRACE_MS, reconcileCheckouts } from "./reconcile-checkouts";

/** A pending row older than this lost its answer (a call gives up after 10 s, twice). */
export const STALE_AFTER_MS = 60_000;
/** Stripe keeps an Idempotency-Key for 24 hours; a repeat is made only well within that. */
export const KEY_LIFETIME_MS = 20 * 60 * 60_000;
/** Rows and bookings per run (per shard): the cron comes back every minute for the rest. */
export const RECONCILE_LIMIT = 50;

export interface ReconcileOptions {
  now?: number;
  staleAfterMs?: number;
  limit?: number;
  dispatch?: Dispatch;
}

interface Reconciled {
  repeated: number;
  settled: number;
  checkouts: number;
}

type StaleRow = Awaited<ReturnType<typeof stalePending>>[number];
type StaleOrderRefund = Awaited<ReturnType<typeof stalePendingOrderRefunds>>[number];

/**
 * The payments' safety net, run by the cron: (a) calls whose answer never
 * reached the ledger (the worker stopped between the call and the write) are
 * made again under the same Idempotency-Key, so the provider answers with
 * what it did the first time and nothing is charged or refunded twice;
 * (b) canceled bookings paid online that nobody settled (the after-write
 * hook never ran) are settled; (c) checkouts past their expiry that no
 * provider event closed are asked about and closed; (d) refunds of POS orders
 * paid online whose answer was lost are sent again under their key. Bounded per run.
 * Every shard is read whole; each workspace found there is then worked on
 * through its own handle, so its writes carry the placement check.
 */
export async function reconcilePayments(
  env: Env,
  options: ReconcileOptions = {},
): Promise<Reconciled> {
  const settings = configOf(env).stripe;
  const total: Reconciled = { repeated: 0, settled: 0, checkouts: 0 };
  if (!settings) return total;
  const now = options.now ?? Date.now();
  const limit = options.limit ?? RECONCILE_LIMIT;
  await sweepEveryShard(env, async (sweep, shard) => {
    const staleBefore = now - (options.staleAfterMs ?? STALE_AFTER_MS);
    const stale = await stalePending(sweep, staleBefore, limit);
    const orderRefunds = await stalePendingOrderRefunds(
      sweep,
      { after: now - KEY_LIFETIME_MS, before: staleBefore },
      limit,
    );
    const cancels = await unsettledCancels(sweep, limit);
    const checkouts = await overdueCheckouts(sweep, now - CHECKOUT_GRACE_MS, limit);
    const orderCheckouts = await overdueOrderCheckouts(sweep, now - CHECKOUT_GRACE_MS, limit);
    const found = [...stale, ...cancels, ...checkouts, ...orderCheckouts, ...orderRefunds].map(
      (r) => r.workspaceId,
    );
    await eachWorkspaceOn(env, shard, found, "payments reconcile", async (workspaceId) => {
      const done = await reconcileWorkspace(env, workspaceId, settings, {
        now,
        limit,
        stale: stale.filter((r) => r.workspaceId === workspaceId),
        orderRefunds: orderRefunds.filter((r) => r.workspaceId === workspaceId),
        cancels: cancels.filter((c) => c.workspaceId === workspaceId).map((c) => c.bookingId),
        checkouts: checkouts.some((c) => c.workspaceId === workspaceId),
        orderCheckouts: orderCheckouts.some((c) => c.workspaceId === workspaceId),
        dispatch: options.dispatch,
      });
      total.repeated += done.repeated;
      total.settled += done.settled;
      total.checkouts += done.checkouts;
    });
  });
  return total;
}

/** One workspace's share of a run: what its shard's sweep found of it. */
async function reconcileWorkspace(
  env: Env,
  workspaceId: string,
  settings: StripeSettings,
  found: {
    now: number;
    limit: number;
    stale: StaleRow[];
    orderRefunds: StaleOrderRefund[];
    cancels: string[];
    checkouts: boolean;
    orderCheckouts: boolean;
    dispatch: Dispatch | undefined;
  },
): Promise<Reconciled> {
  const done: Reconciled = { repeated: 0, settled: 0, checkouts: 0 };
  const handle = await backgroundDb(env, workspaceId);
  if (!handle) return done;
  const { now, stale } = found;
  const sink = new EffectSink();
  const db = collectingEffects(handle.db, sink);
  const stripe = stripeClient(settings);
  // Whatever happens to them, they go to the back of the line: no row stuck at the front keeps
  // the ones behind it from ever being tried.
  // The rows' booking payments, read with the touch: one round trip, not one per row.
  const [, paymentRows] =
    stale.length > 0
      ? await db.batch([
          touchPending(
            db,
            stale.map((r) => r.id),
            now,
          ),
          bookingPaymentsOf(
            db,
            stale.map((r) => r.bookingId),
          ),
        ])
      : [null, []];
  const paymentOf = new Map(paymentRows.map((p) => [`${p.workspaceId}/${p.bookingId}`, p]));
  for (const row of stale) {
    // Checkout rows are the checkout's to finish; this module repeats only its own calls.
    if (!isSettlementKind(row.kind)) continue;
    // The provider keeps an Idempotency-Key about a day: repeating a call older than that
    // could act twice. Such a row is for a person to look up at the provider.
    if (row.createdAt < now - KEY_LIFETIME_MS) {
      log("error", "a payment call unanswered for a day needs a person", { payment: row.id });
      continue;
    }
    const payment = paymentOf.get(`${row.workspaceId}/${row.bookingId}`);
    if (!payment) {
      log("warn", "a pending payment row has no booking payment", { payment: row.id });
      continue;
    }
    try {
      if ((await finishCall(db, stripe, row, payment)) !== "pending") done.repeated += 1;
    } catch (error) {
      log("error", "payment reconcile call failed", { error, payment: row.id });
    }
  }
  // A refund of a POS order paid online: the same call under the same key (one refund at most).
  for (const row of found.orderRefunds) {
    try {
      if ((await finishOrderRefund(db, stripe, row)) !== "pending") done.repeated += 1;
    } catch (error) {
      log("error", "order refund reconcile call failed", { error, order: row.orderId });
    }
  }
  for (const bookingId of found.cancels) {
    const result = await settleCancelledBooking(env, workspaceId, bookingId, found.dispatch);
    if (result.settled) done.settled += 1;
  }
  if (found.checkouts)
    done.checkouts = await reconcileCheckouts(env, db, settings, now, found.limit, workspaceId);
  if (found.orderCheckouts)
    done.checkouts += await reconcileOrderCheckouts(
      env,
      db,
      settings,
      now - CHECKOUT_GRACE_MS,
      found.limit,
      workspaceId,
    );
  await found.dispatch?.(env, sink.take());
  return done;
}

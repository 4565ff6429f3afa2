import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { createDb } from "../../src/db/client";
import { bookingPayments, payments } from "../../src/db/schema";
import { stripeClient } from "../../src/payments/providers/stripe";
import { at, customer, type Salon } from "./salon";
import { payCheckout, stripeBase } from "./stripe";
import { everyShard, shardOf } from "./every-shard";

/** Stored rows, wherever they are: for reading them only (a write goes to its workspace's shard). */
export const db = () => createDb(everyShard);

/** The workspace's own shard, where the app writes its rows. */
const shardDb = async (workspaceId: string) => createDb((await shardOf(workspaceId)).db);

/** The Worker's own client, pointed at stripe-local, for setting up what a checkout leaves there. */
export const testStripe = () =>
  stripeClient({ secretKey: "sk_test_local", webhookSecret: null, apiBase: stripeBase() });

export interface PaymentSetUp {
  /** Paid at checkout (0: the card is only saved). */
  paid: number;
  lateFee?: number | null;
  noShowFee?: number | null;
  /**
   * When (ms) the late-cancel fee starts: the policy's window is set to end
   * there (the start less the window); null: a window of 0, the fee from the start.
   */
  cancelFeeFrom: number | null;
  /** The card typed on the hosted page; null: the customer saved none (nothing to charge later). */
  card?: string | null;
}

/**
 * What a checkout leaves at the provider: a customer, a paid (or set-up)
 * session with the card saved for later charges, as the hosted page makes
 * them. Answers the payment intent (null for a set-up) and the saved card.
 */
export async function providerCheckout(workspaceId: string, paid: number, card: string) {
  const stripe = testStripe();
  const metadata = { workspace_id: workspaceId };
  const cus = await stripe.customers.create({ metadata });
  const common = {
    customer: cus.id,
    success_url: "https://salon.example/paid",
    cancel_url: "https://salon.example/back",
    metadata,
    payment_method_types: ["card" as const],
  };
  const session =
    paid > 0
      ? await stripe.checkout.sessions.create({
          ...common,
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "eur",
                unit_amount: paid,
                product_data: { name: "Deposit" },
              },
            },
          ],
          payment_intent_data: { metadata, setup_future_usage: "off_session" },
        })
      : await stripe.checkout.sessions.create({
          ...common,
          mode: "setup",
          setup_intent_data: { metadata },
        });
  expect((await payCheckout(session.id, card)).status).toBe("complete");
  const done = await stripe.checkout.sessions.retrieve(session.id);
  if (paid > 0) {
    const pi = await stripe.paymentIntents.retrieve(String(done.payment_intent));
    return { customer: cus.id, paymentIntent: pi.id, paymentMethod: String(pi.payment_method) };
  }
  const si = await stripe.setupIntents.retrieve(String(done.setup_intent));
  return { customer: cus.id, paymentIntent: null, paymentMethod: String(si.payment_method) };
}

/**
 * A booking (made with the secret key) and the payment a checkout would
 * have recorded for it: the provider's objects made through stripe-local's
 * hosted page, the booking's payment row and its deposit in the ledger,
 * written as the checkout's webhook writes them.
 */
export async function paidBooking(salon: Salon, date: string, time: string, set: PaymentSetUp) {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at(time, date),
      staffer_uuid: salon.staffers[0]?.uuid,
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return attachPayment(salon, res.body.uuid, set);
}

/** `paidBooking`'s payment, for a booking made already. */
export async function attachPayment(salon: Salon, bookingId: string, set: PaymentSetUp) {
  const card = set.card === undefined ? "4242424242424242" : set.card;
  const provider = card
    ? await providerCheckout(salon.ws.id, set.paid, card)
    : { customer: null, paymentIntent: null, paymentMethod: null };
  const lateFee = set.lateFee === undefined ? 1000 : set.lateFee;
  const noShowFee = set.noShowFee === undefined ? 2500 : set.noShowFee;
  const mode = set.paid > 0 ? ("deposit" as const) : ("card_on_file" as const);
  const now = Date.now();
  const start = Date.parse((await salon.ws.api(`/bookings/${bookingId}`)).body.start_time);
  const feeFrom = set.cancelFeeFrom ?? start;
  const window = Math.round((start - feeFrom) / 60_000);
  const home = await shardDb(salon.ws.id);
  await home.insert(bookingPayments).values({
    bookingId,
    workspaceId: salon.ws.id,
    terms: {
      mode,
      amount_due_now: set.paid,
      currency: "EUR",
      late_cancel: lateFee === null ? null : { window_minutes: window, fee: lateFee },
      no_show_fee: noShowFee,
    },
    policy: {
      mode,
      ...(set.paid > 0 ? { deposit: { amount: set.paid } } : {}),
      ...(lateFee === null
        ? {}
        : { late_cancel: { window_minutes: window, fee: { amount: lateFee } } }),
      ...(noShowFee === null ? {} : { no_show_fee: { amount: noShowFee } }),
    },
    providerCustomer: provider.customer,
    paymentMethod: provider.paymentMethod,
    paymentIntent: provider.paymentIntent,
    paidOnline: set.paid,
    createdAt: now,
  });
  if (set.paid > 0) {
    await home.insert(payments).values({
      id: crypto.randomUUID(),
      workspaceId: salon.ws.id,
      bookingId,
      kind: "deposit",
      amount: set.paid,
      currency: "EUR",
      status: "succeeded",
      provider: "stripe",
      providerRef: provider.paymentIntent,
      idempotencyKey: `checkout:test:${bookingId}`,
      createdAt: now,
      updatedAt: now,
    });
  }
  return { bookingId, ...provider };
}

/** The booking's ledger rows a cancel wrote (its deposit left out), oldest first. */
export const settlementLedger = async (bookingId: string) =>
  (await db().select().from(payments).where(eq(payments.bookingId, bookingId)))
    .filter((r) => r.kind !== "deposit")
    .sort((a, b) => a.kind.localeCompare(b.kind))
    .map((r) => ({
      kind: r.kind,
      amount: r.amount,
      status: r.status,
      failure_reason: r.failureReason,
      key: r.idempotencyKey,
      ref: r.providerRef?.slice(0, 3) ?? null,
    }));

export const bookingPayment = async (bookingId: string) => {
  const [row] = await db()
    .select()
    .from(bookingPayments)
    .where(eq(bookingPayments.bookingId, bookingId));
  return row;
};

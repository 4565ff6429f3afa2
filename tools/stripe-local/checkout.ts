// A Checkout Session's life: paid or saved through the hosted page, or expired.
import { cardBehaviour } from "./cards";
import type { Ctx } from "./context";
import { invalidRequest, StripeError } from "./errors";
import { emitEvent, NO_REQUEST } from "./events";
import { newId, nowSeconds } from "./ids";
import type { CheckoutSession, SetupIntent } from "./objects";
import {
  attachToCustomer,
  confirmPayment,
  createPaymentMethod,
  newPaymentIntent,
} from "./payments";

export type PayOutcome =
  | { status: "complete"; redirect: string }
  | { status: "declined"; message: string }
  | { status: "incorrect"; message: string }
  | { status: "expired" | "complete_already"; message: string };

export interface CardInput {
  number: string;
  name?: string | null;
  /** "MM / YY", "MM/YY" or absent (the control API). */
  expiry?: string | null;
}

export function newSetupIntent(
  customer: string | null,
  metadata: Record<string, string>,
): SetupIntent {
  const id = newId("seti");
  return {
    id,
    object: "setup_intent",
    client_secret: `${id}_secret_${newId("s").slice(2)}`,
    created: nowSeconds(),
    customer,
    last_setup_error: null,
    livemode: false,
    metadata,
    payment_method: null,
    payment_method_types: ["card"],
    status: "requires_payment_method",
    usage: "off_session",
  };
}

function parseExpiry(expiry: string | null | undefined): { month: number; year: number } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry ?? "");
  if (!match) return { month: 12, year: new Date().getUTCFullYear() + 3 };
  const year = Number(match[2]);
  return { month: Number(match[1]), year: year < 100 ? 2000 + year : year };
}

/** Expires an open session now (its time ran out, or POST …/expire). */
export function expireSession(ctx: Ctx, session: CheckoutSession): CheckoutSession {
  if (session.status !== "open") {
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      "session",
    );
  }
  const extras = ctx.state.sessionExtras.get(session.id);
  if (extras?.timer) clearTimeout(extras.timer);
  session.status = "expired";
  session.url = null;
  ctx.state.put(session);
  emitEvent(ctx.outbox, "checkout.session.expired", session, ctx.request);
  return session;
}

/** Arms the session's own expiry at expires_at. */
export function scheduleExpiry(ctx: Ctx, session: CheckoutSession) {
  const extras = ctx.state.sessionExtras.get(session.id);
  if (!extras) return;
  const timer = setTimeout(
    () => {
      const current = ctx.state.session(session.id);
      if (current?.status === "open") expireSession({ ...ctx, request: NO_REQUEST }, current);
    },
    Math.max(0, session.expires_at * 1000 - Date.now()),
  );
  timer.unref();
  extras.timer = timer;
}

/** What submitting the hosted page with this card does. */
export function payCheckout(ctx: Ctx, sessionId: string, card: CardInput): PayOutcome {
  const session = ctx.state.session(sessionId);
  const extras = ctx.state.sessionExtras.get(sessionId);
  if (!session || !extras)
    throw new StripeError(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      message: `No such checkout.session: '${sessionId}'`,
    });
  if (session.status === "expired")
    return { status: "expired", message: "This checkout session has expired." };
  if (session.status === "complete")
    return { status: "complete_already", message: "This checkout session is already complete." };
  const behaviour = cardBehaviour(card.number);
  if (behaviour === "incorrect")
    return { status: "incorrect", message: "Your card number is incorrect." };
  if (behaviour === "declined") return { status: "declined", message: "Your card was declined." };

  const expiry = parseExpiry(card.expiry);
  const pm = createPaymentMethod(
    ctx,
    { number: card.number, name: card.name ?? null, expMonth: expiry.month, expYear: expiry.year },
    behaviour === "fails-later",
  );
  if (session.mode === "setup") {
    const si = session.setup_intent
      ? ctx.state.get<SetupIntent>(session.setup_intent, "setup_intent")
      : undefined;
    if (si) {
      attachToCustomer(ctx, pm, si.customer ?? session.customer);
      si.payment_method = pm.id;
      si.status = "succeeded";
      ctx.state.put(si);
      emitEvent(ctx.outbox, "setup_intent.succeeded", si, ctx.request);
    }
    session.payment_status = "no_payment_required";
  } else {
    const pi = ctx.state.put(
      newPaymentIntent({
        amount: session.amount_total ?? 0,
        currency: session.currency ?? "eur",
        customer: session.customer,
        description: extras.lineItem?.name ?? null,
        metadata: extras.paymentIntentData.metadata,
        setup_future_usage: extras.paymentIntentData.setupFutureUsage,
      }),
    );
    if (extras.paymentIntentData.setupFutureUsage) attachToCustomer(ctx, pm, session.customer);
    confirmPayment(ctx, pi, pm, "checkout", false);
    session.payment_intent = pi.id;
    session.payment_status = "paid";
  }
  if (extras.timer) clearTimeout(extras.timer);
  session.status = "complete";
  session.url = null;
  ctx.state.put(session);
  emitEvent(ctx.outbox, "checkout.session.completed", session, ctx.request);
  return {
    status: "complete",
    redirect: session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id),
  };
}

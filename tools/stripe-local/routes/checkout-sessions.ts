import { expireSession, newSetupIntent, scheduleExpiry } from "../checkout";
import { invalidRequest, resourceMissing, StripeError } from "../errors";
import { newId, nowSeconds } from "../ids";
import type { CheckoutSession, Customer, SetupIntent } from "../objects";
import type { SessionExtras } from "../state";
import { expand } from "./expand";
import { expandOf, int, metadataOf, obj, str, type Params } from "./params";
import type { Route } from "./route";

/** Stripe allows 30 minutes to 24 hours; a few seconds of slack for a client's clock. */
const MIN_EXPIRY_S = 30 * 60;
const MAX_EXPIRY_S = 24 * 60 * 60;
const SLACK_S = 10;

function lineItemOf(p: Params): SessionExtras["lineItem"] & { currency: string } {
  const items = Array.isArray(p.line_items) ? (p.line_items as Params[]) : [];
  if (items.length === 0) {
    throw invalidRequest(
      "You must provide `line_items` in `payment` mode.",
      "line_items",
      "parameter_missing",
    );
  }
  if (items.length > 1) throw invalidRequest("stripe-local takes one line item.", "line_items");
  const item = items[0] ?? {};
  const priceData = obj(item, "price_data");
  const currency = str(priceData, "currency");
  const unitAmount = int(priceData, "unit_amount");
  const name = str(obj(priceData, "product_data"), "name");
  if (!currency)
    throw invalidRequest(
      "Missing required param: line_items[0][price_data][currency].",
      "line_items[0][price_data][currency]",
      "parameter_missing",
    );
  if (unitAmount === undefined)
    throw invalidRequest(
      "Missing required param: line_items[0][price_data][unit_amount].",
      "line_items[0][price_data][unit_amount]",
      "parameter_missing",
    );
  if (!name)
    throw invalidRequest(
      "Missing required param: line_items[0][price_data][product_data][name].",
      "line_items[0][price_data][product_data][name]",
      "parameter_missing",
    );
  return {
    name,
    unitAmount,
    quantity: int(item, "quantity") ?? 1,
    currency: currency.toLowerCase(),
  };
}

export const createSession: Route = {
  method: "post",
  path: "/v1/checkout/sessions",
  handle: (ctx, p) => {
    const mode = str(p, "mode");
    if (mode !== "payment" && mode !== "setup") {
      throw invalidRequest("Missing required param: mode.", "mode", "parameter_missing");
    }
    const customer = str(p, "customer");
    if (customer && !ctx.state.get<Customer>(customer, "customer")) {
      throw invalidRequest(`No such customer: '${customer}'`, "customer", "resource_missing");
    }
    const now = nowSeconds();
    const expiresAt = int(p, "expires_at") ?? now + MAX_EXPIRY_S;
    if (expiresAt < now + MIN_EXPIRY_S - SLACK_S) {
      throw invalidRequest(
        "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        "expires_at",
      );
    }
    if (expiresAt > now + MAX_EXPIRY_S + SLACK_S) {
      throw invalidRequest(
        "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
        "expires_at",
      );
    }
    const line = mode === "payment" ? lineItemOf(p) : null;
    if (mode === "setup" && Array.isArray(p.line_items)) {
      throw invalidRequest("You cannot pass `line_items` in `setup` mode.", "line_items");
    }
    const piData = obj(p, "payment_intent_data");
    const sfu = str(piData, "setup_future_usage");
    const id = newId("cs_test", 58);
    let setupIntent: SetupIntent | null = null;
    if (mode === "setup") {
      setupIntent = ctx.state.put(
        newSetupIntent(customer, metadataOf(obj(p, "setup_intent_data"))),
      );
    }
    const amount = line ? line.unitAmount * line.quantity : null;
    const session = ctx.state.put<CheckoutSession>({
      id,
      object: "checkout.session",
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, status: null },
      cancel_url: str(p, "cancel_url") ?? "",
      client_reference_id: str(p, "client_reference_id"),
      created: now,
      currency: line?.currency ?? null,
      customer,
      expires_at: expiresAt,
      livemode: false,
      metadata: metadataOf(p),
      mode,
      payment_intent: null,
      payment_method_types: Array.isArray(p.payment_method_types)
        ? (p.payment_method_types as string[])
        : ["card"],
      payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
      setup_intent: setupIntent?.id ?? null,
      shipping_options: [],
      status: "open",
      success_url: str(p, "success_url") ?? "",
      url: `${ctx.baseUrl}/c/pay/${id}`,
    });
    ctx.state.sessionExtras.set(id, {
      lineItem: line
        ? { name: line.name, unitAmount: line.unitAmount, quantity: line.quantity }
        : null,
      paymentIntentData: {
        setupFutureUsage: sfu === "off_session" || sfu === "on_session" ? sfu : null,
        metadata: metadataOf(piData),
      },
      timer: null,
    });
    scheduleExpiry(ctx, session);
    return session;
  },
};

const found = (ctx: Parameters<Route["handle"]>[0], id: string | undefined) => {
  const session = id ? ctx.state.session(id) : undefined;
  if (!session) throw resourceMissing("checkout.session", id ?? "", "session");
  return session;
};

export const retrieveSession: Route = {
  method: "get",
  path: "/v1/checkout/sessions/{session}",
  handle: (ctx, p, path) => expand(ctx.state, found(ctx, path.session), expandOf(p)),
};

export const expireSessionRoute: Route = {
  method: "post",
  path: "/v1/checkout/sessions/{session}/expire",
  handle: (ctx, _p, path) => {
    const session = found(ctx, path.session);
    if (session.status !== "open") {
      throw new StripeError(400, {
        type: "invalid_request_error",
        message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        param: "session",
      });
    }
    return expireSession(ctx, session);
  },
};

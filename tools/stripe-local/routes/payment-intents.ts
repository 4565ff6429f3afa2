import { invalidRequest, resourceMissing } from "../errors";
import type { Customer, PaymentIntent, PaymentMethod } from "../objects";
import { confirmPayment, newPaymentIntent } from "../payments";
import { expand } from "./expand";
import { expandOf, int, metadataOf, str } from "./params";
import type { Route } from "./route";

/** An off-session charge to a saved card (confirm=true), or an intent left to confirm. */
export const createPaymentIntent: Route = {
  method: "post",
  path: "/v1/payment_intents",
  handle: (ctx, p) => {
    const customer = str(p, "customer");
    if (customer && !ctx.state.get<Customer>(customer, "customer")) {
      throw invalidRequest(`No such customer: '${customer}'`, "customer", "resource_missing");
    }
    const pmId = str(p, "payment_method");
    const pm = pmId ? ctx.state.get<PaymentMethod>(pmId, "payment_method") : undefined;
    if (pmId && !pm)
      throw invalidRequest(
        `No such PaymentMethod: '${pmId}'`,
        "payment_method",
        "resource_missing",
      );
    if (pm && pm.customer !== customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${pm.id} does not belong to the Customer ${customer ?? "(none)"}.`,
        "payment_method",
      );
    }
    const pi = newPaymentIntent({
      amount: int(p, "amount") ?? 0,
      currency: (str(p, "currency") ?? "eur").toLowerCase(),
      customer,
      description: str(p, "description"),
      metadata: metadataOf(p),
    });
    if (pi.amount < 1)
      throw invalidRequest(
        "This value must be greater than or equal to 1.",
        "amount",
        "parameter_invalid_integer",
      );
    ctx.state.put(pi);
    if (p.confirm !== true) {
      pi.payment_method = pm?.id ?? null;
      pi.status = pm ? "requires_confirmation" : "requires_payment_method";
      return pi;
    }
    if (!pm)
      throw invalidRequest(
        "You must provide a payment_method to confirm this PaymentIntent.",
        "payment_method",
        "parameter_missing",
      );
    const declines = ctx.declines === true || ctx.state.failingMethods.has(pm.id);
    return confirmPayment(ctx, pi, pm, "api", declines);
  },
};

export const retrievePaymentIntent: Route = {
  method: "get",
  path: "/v1/payment_intents/{intent}",
  handle: (ctx, p, path) => {
    const pi = ctx.state.get<PaymentIntent>(path.intent ?? "", "payment_intent");
    if (!pi) throw resourceMissing("payment_intent", path.intent ?? "", "intent");
    return expand(ctx.state, pi, expandOf(p));
  },
};

import { exports } from "cloudflare:workers";
import { BASE } from "./http";
import { type StripeDelivery, stripeDeliveries } from "./stripe";

/** The provider's session id in a hosted checkout URL (`…/c/pay/<id>`). */
export const sessionOf = (checkoutUrl: string) => checkoutUrl.split("/").pop() ?? "";

/** Posts one signed event to the Worker's webhook as the provider would. */
export async function postEvent(delivery: Pick<StripeDelivery, "payload" | "signature">) {
  const response = await exports.default.fetch(
    new Request(`${BASE}/api/payments/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": delivery.signature },
      body: delivery.payload,
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Takes the workspace's waiting events and posts each, in order; answers what each got. */
export async function deliverEvents(workspace: string) {
  const deliveries = await stripeDeliveries(workspace);
  const answers = [];
  for (const d of deliveries) answers.push({ type: d.type, ...(await postEvent(d)) });
  return { deliveries, answers };
}

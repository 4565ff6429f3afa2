import { createHmac } from "node:crypto";

/**
 * The `Stripe-Signature` header of a payload: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" keyed with the whole endpoint secret>`, what stripe-node's
 * `webhooks.constructEventAsync` checks.
 */
export function signPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

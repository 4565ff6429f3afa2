import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

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
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${payload}`));
  return `t=${timestamp},v1=${bytesToHex(mac)}`;
}

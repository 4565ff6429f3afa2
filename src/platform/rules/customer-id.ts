import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

/**
 * The id of a customer the Worker adds, derived from (workspace, E.164 phone):
 * two bookings racing to create the same new customer compute the same id, so
 * the upsert of one and the booking of the other can never point at different
 * rows. Keyed (HMAC-SHA256 under the Worker's CUSTOMER_ID_SECRET), so a
 * `customer_uuid` does not give its phone away: without the key, trying every
 * candidate number tells nothing. Ids stored before the key existed are the
 * unkeyed hash (`secret` null, as a Worker without the secret still derives
 * them); customers are found by phone, so each keeps the id it has.
 */
export async function customerIdFor(
  workspaceId: string,
  phoneE164: string,
  secret: string | null,
): Promise<string> {
  const message = new TextEncoder().encode(`customer:${workspaceId}:${phoneE164}`);
  const digest = secret
    ? hmac(sha256, new TextEncoder().encode(secret), message)
    : new Uint8Array(await crypto.subtle.digest("SHA-256", message));
  const bytes = digest.slice(0, 16);
  // RFC 9562 version 8 (custom) with the RFC variant bits.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

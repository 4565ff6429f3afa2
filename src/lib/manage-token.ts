/**
 * A manage link's token: what booking it opens, in which workspace, until
 * when, signed with HMAC-SHA256 under the Worker's MANAGE_TOKEN_SECRET.
 *
 * Layout (53 bytes, 71 base64url characters, no padding):
 *   version (1) | booking uuid (16) | workspace uuid (16) | expiry, unix seconds (4, big endian)
 *   | HMAC-SHA256 of the 37 bytes before it, first 16 bytes
 * Compact because it travels in SMS. The MAC is truncated to 128 bits (half
 * the hash, as RFC 2104 §5 allows): a forger must guess 2^128 values, and the
 * routes are rate-limited per client address besides.
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

const VERSION = 1;
const PAYLOAD_BYTES = 37;
const MAC_BYTES = 16;
const TOKEN_BYTES = PAYLOAD_BYTES + MAC_BYTES;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The expiry is four bytes of unix seconds: 2106 at the latest (instants past 2100 are refused anyway). */
const MAX_SECONDS = 0xffff_ffff;

export interface ManageClaims {
  bookingId: string;
  workspaceId: string;
  /** Epoch ms, whole seconds: the token is refused from this instant on. */
  expiresAt: number;
}

/**
 * The MAC of a payload. Synchronous (a maintained, audited HMAC rather than
 * WebCrypto's promise), so a booking change can put a manage link into the
 * messages it plans and writes in the same batch.
 */
function macOf(secret: string, payload: Uint8Array): Uint8Array {
  return hmac(sha256, new TextEncoder().encode(secret), payload).subarray(0, MAC_BYTES);
}

/** Equal bytes, in time that depends on the length only (both are MAC_BYTES long here). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

function uuidBytes(id: string): Uint8Array {
  if (!UUID.test(id)) throw new Error("a manage token names bookings and workspaces by uuid");
  const hex = id.replace(/-/g, "");
  return Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/");
  try {
    const binary = atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

export function signManageToken(secret: string, claims: ManageClaims): string {
  const seconds = Math.ceil(claims.expiresAt / 1000);
  if (!(seconds > 0 && seconds <= MAX_SECONDS)) throw new Error("expiry out of range");
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = VERSION;
  payload.set(uuidBytes(claims.bookingId), 1);
  payload.set(uuidBytes(claims.workspaceId), 17);
  new DataView(payload.buffer).setUint32(33, seconds);
  const token = new Uint8Array(TOKEN_BYTES);
  token.set(payload, 0);
  token.set(macOf(secret, payload), PAYLOAD_BYTES);
  return base64url(token);
}

/**
 * The claims of a token this secret signed and that has not expired at
 * `now`; null for anything else (malformed, another version, a changed
 * character anywhere, another secret, expired). Only the canonical spelling
 * is accepted: base64url's last character has spare bits, and a token that
 * decodes to the same bytes with other spare bits is not the one issued.
 */
export function verifyManageToken(secret: string, token: string, now: number): ManageClaims | null {
  const bytes = fromBase64url(token);
  if (!bytes || bytes.length !== TOKEN_BYTES || base64url(bytes) !== token) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  const expected = macOf(secret, payload);
  // The MAC first, in constant time: nothing about an unsigned payload is looked at.
  if (!sameBytes(expected, bytes.subarray(PAYLOAD_BYTES))) return null;
  if (payload[0] !== VERSION) return null;
  const expiresAt = new DataView(payload.buffer, payload.byteOffset).getUint32(33) * 1000;
  if (now >= expiresAt) return null;
  return {
    bookingId: uuidOf(payload.subarray(1, 17)),
    workspaceId: uuidOf(payload.subarray(17, 33)),
    expiresAt,
  };
}

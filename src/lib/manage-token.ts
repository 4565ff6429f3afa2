/**
 * A manage link's token: what booking it opens, in which workspace, and the
 * booking's time it was issued for, signed with HMAC-SHA256 under the
 * Worker's MANAGE_TOKEN_SECRET.
 *
 * Layout (53 bytes, 71 base64url characters, no padding):
 *   version (1) | booking uuid (16) | workspace uuid (16) | bound, unix seconds (4, big endian)
 *   | HMAC-SHA256 of the 37 bytes before it, first 16 bytes
 * Version 2 binds the booking's start: once the booking moves, the link no
 * longer opens it (src/lib/manage-link.ts), and it expires a day after the
 * booking's current end. Version 1 (issued before) carries its expiry, a day
 * after the end the booking had when signed; it opens the booking only while
 * that is still its end, so a move revokes it too.
 * Compact because it travels in SMS. The MAC is truncated to 128 bits (half
 * the hash, as RFC 2104 §5 allows): a forger must guess 2^128 values, and the
 * routes are rate-limited per client address besides.
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** Start-bound tokens; EXPIRY_VERSION ones are still accepted (links already sent). */
const VERSION = 2;
const EXPIRY_VERSION = 1;
const PAYLOAD_BYTES = 37;
const MAC_BYTES = 16;
const TOKEN_BYTES = PAYLOAD_BYTES + MAC_BYTES;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The bound is four bytes of unix seconds: 2106 at the latest (instants past 2100 are refused anyway). */
const MAX_SECONDS = 0xffff_ffff;

/**
 * What ties a link to the booking as it was when signed (epoch ms, whole
 * seconds): its start (current tokens), or the link's expiry, a day after the
 * end it had (tokens issued before links were bound to the start).
 */
export type ManageBound = { startAt: number } | { expiresAt: number };

export interface ManageClaims {
  bookingId: string;
  workspaceId: string;
  bound: ManageBound;
}

/** What a new token is signed for: the booking's start. */
export interface ManageSigned {
  bookingId: string;
  workspaceId: string;
  startAt: number;
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

/** A token for the booking at its start (version 2). */
export function signManageToken(secret: string, claims: ManageSigned): string {
  return signPayload(secret, VERSION, claims, Math.floor(claims.startAt / 1000));
}

/**
 * A token of the first layout (an expiry, not bound to the start): what links
 * issued before carry. Only tests sign these now, to show they still verify.
 */
export function signExpiryManageToken(
  secret: string,
  claims: { bookingId: string; workspaceId: string; expiresAt: number },
): string {
  return signPayload(secret, EXPIRY_VERSION, claims, Math.ceil(claims.expiresAt / 1000));
}

function signPayload(
  secret: string,
  version: number,
  claims: { bookingId: string; workspaceId: string },
  seconds: number,
): string {
  if (!(seconds > 0 && seconds <= MAX_SECONDS)) throw new Error("bound out of range");
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = version;
  payload.set(uuidBytes(claims.bookingId), 1);
  payload.set(uuidBytes(claims.workspaceId), 17);
  new DataView(payload.buffer).setUint32(33, seconds);
  const token = new Uint8Array(TOKEN_BYTES);
  token.set(payload, 0);
  token.set(macOf(secret, payload), PAYLOAD_BYTES);
  return base64url(token);
}

/**
 * The claims of a token this secret signed; null for anything else
 * (malformed, an unknown version, a changed character anywhere, another
 * secret, or a first-layout token expired at `now`). Whether it still opens
 * the booking as it now is is the link's check (`linkOpens`), once the
 * booking is read. Only the canonical spelling is accepted: base64url's last
 * character has spare bits, and a token that decodes to the same bytes with
 * other spare bits is not the one issued.
 */
export function verifyManageToken(secret: string, token: string, now: number): ManageClaims | null {
  const bytes = fromBase64url(token);
  if (!bytes || bytes.length !== TOKEN_BYTES || base64url(bytes) !== token) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  const expected = macOf(secret, payload);
  // The MAC first, in constant time: nothing about an unsigned payload is looked at.
  if (!sameBytes(expected, bytes.subarray(PAYLOAD_BYTES))) return null;
  const at = new DataView(payload.buffer, payload.byteOffset).getUint32(33) * 1000;
  let bound: ManageBound;
  if (payload[0] === VERSION) bound = { startAt: at };
  else if (payload[0] === EXPIRY_VERSION && now < at) bound = { expiresAt: at };
  else return null;
  return {
    bookingId: uuidOf(payload.subarray(1, 17)),
    workspaceId: uuidOf(payload.subarray(17, 33)),
    bound,
  };
}

import { UUID } from "../platform/rules/uuid";
/**
 * A manage link's token: what booking it opens, in which workspace, and for
 * which of the booking's customers, signed with HMAC-SHA256 under the
 * Worker's MANAGE_TOKEN_SECRET.
 *
 * Layout (53 bytes, 71 base64url characters, no padding):
 *   version (1) | booking uuid (16) | workspace uuid (16) | bound (4)
 *   | HMAC-SHA256 of the 37 bytes before it, first 16 bytes
 * Version 3 (current): the bound is a tag of the booking's customer (the
 * first 4 bytes of SHA-256 over the customer's id): the link opens the
 * booking while it is that customer's, wherever the booking has moved, until
 * a day after its current end (src/bookings/manage-link.ts). The tag is no secret
 * (the MAC is what makes a token unforgeable); it only ties a link to the
 * customer it was sent to, so a booking handed to another customer does not
 * open for the first one's links.
 * Versions 1 (the bound was the link's expiry) and 2 (the booking's start)
 * were issued before and are still in sent messages: both were only ever
 * issued to the booking's customer, so they open it like a version-3 link of
 * its customer (their bound is no longer read).
 * Compact because it travels in SMS. The MAC is truncated to 128 bits (half
 * the hash, as RFC 2104 §5 allows): a forger must guess 2^128 values, and the
 * routes are rate-limited per client address besides.
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

const VERSION = 3;
/** Issued before (links already sent): an expiry (1), the booking's start (2). */
const LEGACY_VERSIONS = new Set([1, 2]);
const PAYLOAD_BYTES = 37;
const MAC_BYTES = 16;
const TOKEN_BYTES = PAYLOAD_BYTES + MAC_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Whom a link was issued to: the tag of the booking's customer (current
 * tokens), or nobody in particular (tokens of the layouts before, all issued
 * to the booking's customer of the time).
 */
export type ManageBound = { customerTag: number } | { legacy: true };

export interface ManageGrant {
  bookingId: string;
  workspaceId: string;
  bound: ManageBound;
}

/** What a new token is signed for: the booking and its customer. */
export interface ManageSigned {
  bookingId: string;
  workspaceId: string;
  customerId: string;
}

/** The 32-bit tag of a customer id that a current token carries. */
export function customerTag(customerId: string): number {
  const digest = sha256(new TextEncoder().encode(`manage-link-customer:${customerId}`));
  return new DataView(digest.buffer, digest.byteOffset).getUint32(0);
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

/** A token for the booking and its customer (version 3). */
export function signManageToken(secret: string, grant: ManageSigned): string {
  return signPayload(secret, VERSION, grant, customerTag(grant.customerId));
}

/**
 * A token of an earlier layout (1: an expiry, 2: the booking's start), as
 * links already sent carry them. Only tests sign these now, to show they
 * still open the booking.
 */
export function signLegacyManageToken(
  secret: string,
  version: 1 | 2,
  grant: { bookingId: string; workspaceId: string; seconds: number },
): string {
  return signPayload(secret, version, grant, grant.seconds);
}

function signPayload(
  secret: string,
  version: number,
  grant: { bookingId: string; workspaceId: string },
  bound: number,
): string {
  if (!(Number.isInteger(bound) && bound >= 0 && bound <= 0xffff_ffff))
    throw new Error("bound out of range");
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = version;
  payload.set(uuidBytes(grant.bookingId), 1);
  payload.set(uuidBytes(grant.workspaceId), 17);
  new DataView(payload.buffer).setUint32(33, bound);
  const token = new Uint8Array(TOKEN_BYTES);
  token.set(payload, 0);
  token.set(macOf(secret, payload), PAYLOAD_BYTES);
  return base64url(token);
}

/**
 * The grant of a token this secret signed; null for anything else
 * (malformed, an unknown version, a changed character anywhere, another
 * secret). Whether it still opens the booking as it now is (its customer, a
 * day past its current end) is the link's check (`linkOpens`), once the
 * booking is read. Only the canonical spelling is accepted: base64url's last
 * character has spare bits, and a token that decodes to the same bytes with
 * other spare bits is not the one issued.
 */
export function verifyManageToken(secret: string, token: string): ManageGrant | null {
  const bytes = fromBase64url(token);
  if (!bytes || bytes.length !== TOKEN_BYTES || base64url(bytes) !== token) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  const expected = macOf(secret, payload);
  // The MAC first, in constant time: nothing about an unsigned payload is looked at.
  if (!sameBytes(expected, bytes.subarray(PAYLOAD_BYTES))) return null;
  const version = payload[0] ?? 0;
  let bound: ManageBound;
  if (version === VERSION)
    bound = { customerTag: new DataView(payload.buffer, payload.byteOffset).getUint32(33) };
  else if (LEGACY_VERSIONS.has(version)) bound = { legacy: true };
  else return null;
  return {
    bookingId: uuidOf(payload.subarray(1, 17)),
    workspaceId: uuidOf(payload.subarray(17, 33)),
    bound,
  };
}

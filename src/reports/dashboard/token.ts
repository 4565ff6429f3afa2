import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { UUID } from "../../platform/rules/uuid";

/**
 * A dashboard link's token: which location's reports of which days it opens,
 * until when, and which API key made it, signed with HMAC-SHA256 under the
 * Worker's MANAGE_TOKEN_SECRET (the links' secret) with a label of its own, so
 * no manage token can ever pass for one nor one for a manage token.
 *
 * Layout (69 bytes, 92 base64url characters, no padding):
 *   version (1) | workspace uuid (16) | location uuid (16) | from day (4)
 *   | to day (4) | expiry, epoch seconds (4) | API key id (8)
 *   | HMAC-SHA256 of the 53 bytes before it, first 16 bytes
 * The key's id lets the page refuse the link once the key is revoked. The
 * token is the only credential of the page, so it opens nothing but the page.
 */

const VERSION = 1;
const LABEL = new TextEncoder().encode("dashboard-link:");
const PAYLOAD_BYTES = 53;
const MAC_BYTES = 16;
const TOKEN_BYTES = PAYLOAD_BYTES + MAC_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]{92}$/;
const KEY_ID = /^[0-9a-f]{16}$/;

export interface DashboardGrant {
  workspaceId: string;
  locationId: string;
  /** Day numbers (days since 1970-01-01 on the location's wall clock), inclusive. */
  fromDay: number;
  toDay: number;
  /** Epoch milliseconds, a whole second. */
  expiresAt: number;
  apiKeyId: string;
}

function macOf(secret: string, payload: Uint8Array): Uint8Array {
  const input = new Uint8Array(LABEL.length + payload.length);
  input.set(LABEL, 0);
  input.set(payload, LABEL.length);
  return hmac(sha256, new TextEncoder().encode(secret), input).subarray(0, MAC_BYTES);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

const hexBytes = (hex: string) =>
  Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
const hexOf = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function uuidOf(bytes: Uint8Array): string {
  const hex = hexOf(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const u32 = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff;

export function signDashboardToken(secret: string, grant: DashboardGrant): string {
  if (!UUID.test(grant.workspaceId) || !UUID.test(grant.locationId))
    throw new Error("a dashboard token names its workspace and location by uuid");
  if (!KEY_ID.test(grant.apiKeyId)) throw new Error("a dashboard token names an API key id");
  const seconds = grant.expiresAt / 1000;
  if (![grant.fromDay, grant.toDay, seconds].every(u32)) throw new Error("out of range");
  const payload = new Uint8Array(PAYLOAD_BYTES);
  const view = new DataView(payload.buffer);
  payload[0] = VERSION;
  payload.set(hexBytes(grant.workspaceId.replace(/-/g, "").toLowerCase()), 1);
  payload.set(hexBytes(grant.locationId.replace(/-/g, "").toLowerCase()), 17);
  view.setUint32(33, grant.fromDay);
  view.setUint32(37, grant.toDay);
  view.setUint32(41, seconds);
  payload.set(hexBytes(grant.apiKeyId), 45);
  const token = new Uint8Array(TOKEN_BYTES);
  token.set(payload, 0);
  token.set(macOf(secret, payload), PAYLOAD_BYTES);
  return base64url(token);
}

/**
 * The grant a token this secret signed; null for anything else (malformed, a
 * changed character, another secret, another version). Whether it is still
 * valid (expiry, the key) is the page's check.
 */
export function readDashboardToken(secret: string, token: string): DashboardGrant | null {
  if (!BASE64URL.test(token)) return null;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (ch) =>
      ch.charCodeAt(0),
    );
  } catch {
    return null;
  }
  if (bytes.length !== TOKEN_BYTES || base64url(bytes) !== token) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!sameBytes(macOf(secret, payload), bytes.subarray(PAYLOAD_BYTES))) return null;
  if (payload[0] !== VERSION) return null;
  const view = new DataView(payload.buffer, payload.byteOffset, PAYLOAD_BYTES);
  return {
    workspaceId: uuidOf(payload.subarray(1, 17)),
    locationId: uuidOf(payload.subarray(17, 33)),
    fromDay: view.getUint32(33),
    toDay: view.getUint32(37),
    expiresAt: view.getUint32(41) * 1000,
    apiKeyId: hexOf(payload.subarray(45, 53)),
  };
}

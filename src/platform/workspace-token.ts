import { UUID } from "./rules/uuid";
/**
 * Secret link tokens that a request without an API key must route by (a
 * staffer's calendar feed, a waitlist offer): the workspace's uuid (16 bytes)
 * then 32 random bytes (256 bits, the secret), in base64url: 64 characters, no
 * padding and no spare bits (48 bytes), so each token has one spelling.
 *
 * The workspace part is no secret and is not trusted: it only says which shard
 * to look the token up on. The token is found there by the hash of all of it,
 * so a token whose workspace part was changed matches no row anywhere, and the
 * row found must belong to the workspace the token names besides.
 */

const TOKEN = /^[A-Za-z0-9_-]{64}$/;

/** The length of a workspace token, in characters. */
export const WORKSPACE_TOKEN_LENGTH = 64;

/** A new token for a link of the workspace. */
export function workspaceToken(workspaceId: string): string {
  if (!UUID.test(workspaceId)) throw new Error("a workspace token names its workspace by uuid");
  const hex = workspaceId.replace(/-/g, "");
  const bytes = new Uint8Array(48);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  bytes.set(crypto.getRandomValues(new Uint8Array(32)), 16);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_");
}

/** The workspace a token names (lower-case uuid); null for text that is no such token. */
export function workspaceOfToken(token: string): string | null {
  if (!TOKEN.test(token)) return null;
  const binary = atob(token.slice(0, 24).replace(/-/g, "+").replace(/_/g, "/"));
  const hex = Array.from(binary.slice(0, 16), (ch) =>
    ch.charCodeAt(0).toString(16).padStart(2, "0"),
  ).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

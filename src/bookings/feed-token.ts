import { sha256Hex } from "../tenancy/api-keys";

/**
 * A staffer's calendar feed token: `feed_` and 32 random bytes (256 bits) in base64url. The
 * prefix lets the logs recognise and redact one (src/platform/log.ts) wherever it appears.
 */
const TOKEN = /^feed_[A-Za-z0-9_-]{43}$/;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const generateFeedToken = () =>
  `feed_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;

/** Whether the text is shaped like a feed token (anything else is no feed, unread). */
export const isFeedToken = (text: string) => TOKEN.test(text);

/**
 * What is stored and looked up: the SHA-256 of the token. A 256-bit random token needs no salt
 * or slow hash, and the lookup by hash needs no constant-time compare (a hash gives nothing away
 * about a token an attacker could use).
 */
export const hashFeedToken = (token: string) => sha256Hex(token);

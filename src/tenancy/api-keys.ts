import type { ApiKeyKind } from "../platform/caller";

/**
 * API keys look like `sk_<id>_<secret>` (secret keys, for servers) or
 * `pk_<id>_<secret>` (publishable keys, for web pages): the id finds the row,
 * the secret is 32 random bytes. Only the SHA-256 of the whole key is stored,
 * and hashes are compared in constant time.
 */
const KEY_FORMAT = /^(sk|pk)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

const PREFIX: Record<ApiKeyKind, "sk" | "pk"> = { secret: "sk", publishable: "pk" };

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return hex(new Uint8Array(digest));
}

export function generateApiKey(kind: ApiKeyKind = "secret"): { id: string; key: string } {
  const id = hex(crypto.getRandomValues(new Uint8Array(8)));
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { id, key: `${PREFIX[kind]}_${id}_${secret}` };
}

/** The kind the key's prefix claims and the row id; null for anything not shaped like a key. */
export function parseApiKey(key: string): { kind: ApiKeyKind; id: string } | null {
  const [, prefix, id] = KEY_FORMAT.exec(key) ?? [];
  if (!id) return null;
  return { kind: prefix === "pk" ? "publishable" : "secret", id };
}

export function parseApiKeyId(key: string): string | null {
  return parseApiKey(key)?.id ?? null;
}

/** Constant-time equality of two strings through their SHA-256 digests (equal lengths). */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
}

/**
 * API keys look like `sk_<id>_<secret>`: the id finds the row, the secret is
 * 32 random bytes. Only the SHA-256 of the whole key is stored, and hashes are
 * compared in constant time.
 */
const KEY_FORMAT = /^sk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

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

export function generateApiKey(): { id: string; key: string } {
  const id = hex(crypto.getRandomValues(new Uint8Array(8)));
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { id, key: `sk_${id}_${secret}` };
}

export function parseApiKeyId(key: string): string | null {
  return KEY_FORMAT.exec(key)?.[1] ?? null;
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

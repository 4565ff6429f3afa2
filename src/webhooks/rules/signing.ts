/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret
 * is `whsec_` + base64 of random bytes; the signature is
 * `v1,` + base64(HMAC-SHA256(secret bytes, "{id}.{timestamp}.{body}")), and
 * several signatures (during a secret rotation) are sent space-separated.
 * WebCrypto only, so it runs the same in Workers and in Node.
 */
const PREFIX = "whsec_";

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(24)));
}

async function hmac(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content));
  return toBase64(new Uint8Array(mac));
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** The three headers for one delivery; `timestamp` is Unix seconds. */
export async function signWebhook(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<SignedHeaders> {
  const content = `${id}.${timestamp}.${body}`;
  const signatures = await Promise.all(secrets.map(async (s) => `v1,${await hmac(s, content)}`));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}

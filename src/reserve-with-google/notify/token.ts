import { importPKCS8, SignJWT } from "jose";
import type { Config } from "../../platform/config";

type Account = NonNullable<Config["rwgNotify"]>["account"];

/** The scope of the Maps Booking API (real-time updates). */
export const MAPS_BOOKING_SCOPE = "https://www.googleapis.com/auth/mapsbooking";

/** A token is used until this long before Google said it expires (a call in flight must not outlive it). */
const EARLY_MS = 5 * 60_000;

/** Why no token: the token endpoint's status (0: no answer at all), for the caller's retry rule. */
export class TokenError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "TokenError";
  }
}

/** This isolate's token, per service account: one token request per hour, not per call. */
const cache = new Map<string, { token: string; expiresAt: number }>();

/**
 * An OAuth 2.0 access token for the service account (RFC 7523 JWT bearer grant, as
 * Google's service accounts sign in): an RS256 assertion signed with the account's key,
 * exchanged at its token_uri.
 */
export async function accessToken(account: Account, now = Date.now()): Promise<string> {
  const cached = cache.get(account.clientEmail);
  if (cached && cached.expiresAt - EARLY_MS > now) return cached.token;
  const key = await importPKCS8(account.privateKey, "RS256");
  const iat = Math.floor(now / 1000);
  const assertion = await new SignJWT({ scope: MAPS_BOOKING_SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(key);
  let res: Response;
  try {
    res = await fetch(account.tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion,
      }),
    });
  } catch (error) {
    throw new TokenError(0, `token endpoint unreachable: ${String(error)}`);
  }
  const body = (await res.json().catch(() => null)) as {
    access_token?: unknown;
    expires_in?: unknown;
  } | null;
  if (!res.ok || typeof body?.access_token !== "string") {
    throw new TokenError(res.ok ? 502 : res.status, `token endpoint answered ${res.status}`);
  }
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 3600;
  cache.set(account.clientEmail, { token: body.access_token, expiresAt: now + seconds * 1000 });
  return body.access_token;
}

/** Forgets the token (Google refused it: revoked, or the clock was off). */
export const forgetToken = (account: Account) => cache.delete(account.clientEmail);

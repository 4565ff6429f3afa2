import Stripe from "stripe";
import type { Config } from "../../platform/config";

/**
 * The API version every call names: the version of Stripe's published OpenAPI
 * description the local test server checks our requests against
 * (test/fixtures/stripe), so what the tests accept is what Stripe accepts.
 */
export const STRIPE_API_VERSION = "2020-08-27";

export type StripeSettings = NonNullable<Config["stripe"]>;

/**
 * The official client, on Workers' fetch and SubtleCrypto, pointed at
 * `STRIPE_API_BASE` (Stripe itself, or a Stripe-compatible test server). Its
 * own retries resend the same Idempotency-Key, so they never act twice.
 */
export function stripeClient(
  settings: StripeSettings,
  env?: { PROVIDER_FETCH?: typeof fetch },
): Stripe {
  const base = new URL(settings.apiBase);
  return new Stripe(settings.secretKey, {
    // The client's types describe its newest version; the calls are made in this one.
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    host: base.hostname,
    port: base.port || (base.protocol === "http:" ? 80 : 443),
    protocol: base.protocol === "http:" ? "http" : "https",
    // A request's counted fetch when there is one (Server-Timing `provider`).
    httpClient: Stripe.createFetchHttpClient(env?.PROVIDER_FETCH),
    maxNetworkRetries: 1,
    timeout: 10_000,
  });
}

export const subtleCrypto = Stripe.createSubtleCryptoProvider();

/**
 * What became of a call: `done` (the provider acted and said so), `refused`
 * (it certainly did not act: a declined card, an invalid request), or
 * `unknown` (no answer: it may have acted; the same call with the same key
 * finds out).
 */
export type Outcome<T> =
  | { status: "done"; value: T }
  | { status: "refused"; reason: string; code: string | null }
  | { status: "unknown"; reason: string };

export async function outcomeOf<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { status: "done", value: await call() };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      return {
        status: "refused",
        reason: error.message,
        code: error.decline_code ?? error.code ?? "card_declined",
      };
    }
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError ||
      error instanceof Stripe.errors.StripeAuthenticationError ||
      error instanceof Stripe.errors.StripePermissionError
    ) {
      return { status: "refused", reason: error.message, code: error.code ?? error.type };
    }
    // Connection errors, 5xx, 409 idempotency-in-flight, rate limits: the call may have acted.
    return { status: "unknown", reason: error instanceof Error ? error.message : String(error) };
  }
}

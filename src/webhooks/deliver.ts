import { parseRetryAfter, parseStatuses } from "../domain/webhooks/backoff";
import { signWebhook } from "../domain/webhooks/signing";
import type { WebhookRow } from "../db/queries/webhooks";
import type { Envelope } from "./messages";

export interface AttemptResult {
  statusCode: number | null;
  success: boolean;
  error: string | null;
  durationMs: number;
  retryAfterSeconds: number | null;
}

/** The secrets that sign now: the current one, and the previous one while a rotation overlaps. */
export function signingSecrets(hook: WebhookRow, now: number): string[] {
  const previous =
    hook.previousSecret && (hook.previousSecretExpiresAt ?? 0) > now ? [hook.previousSecret] : [];
  return [hook.secret, ...previous];
}

/** One HTTP attempt with the webhook's method, parameters, headers, timeout and signature. */
export async function attemptDelivery(
  hook: WebhookRow,
  envelope: Envelope,
): Promise<AttemptResult> {
  const url = new URL(hook.url);
  for (const p of hook.parameters) url.searchParams.append(p.name, p.value);
  const method = hook.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "DELETE";
  const body = hasBody ? JSON.stringify(envelope) : "";
  const now = Date.now();
  const signed = await signWebhook(
    signingSecrets(hook, now),
    envelope.id,
    Math.floor(now / 1000),
    body,
  );
  const headers = new Headers();
  for (const h of hook.headers) headers.append(h.name, h.value);
  headers.set("user-agent", "salon-api-webhooks/1");
  if (hasBody) headers.set("content-type", "application/json");
  for (const [name, value] of Object.entries(signed)) headers.set(name, value);

  const started = Date.now();
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: hasBody ? body : undefined,
      // A redirect could lead to an address the URL check would have refused.
      redirect: "manual",
      signal: AbortSignal.timeout(hook.timeout * 1000),
    });
    // The body is not needed; cancelling it frees the connection.
    await response.body?.cancel();
    return {
      statusCode: response.status,
      success: parseStatuses(hook.successStatuses).includes(response.status),
      error: null,
      durationMs: Date.now() - started,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
    };
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return {
      statusCode: null,
      success: false,
      error: timedOut
        ? `timed out after ${hook.timeout} s`
        : String(e instanceof Error ? e.message : e),
      durationMs: Date.now() - started,
      retryAfterSeconds: null,
    };
  }
}

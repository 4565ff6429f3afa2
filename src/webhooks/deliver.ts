import { parseRetryAfter, parseStatuses } from "../domain/webhooks/backoff";
import { deliveryUrl, headersProblem } from "../domain/webhooks/request";
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

const failed = (error: string, durationMs = 0): AttemptResult => ({
  statusCode: null,
  success: false,
  error,
  durationMs,
  retryAfterSeconds: null,
});

const messageOf = (e: unknown) => String(e instanceof Error ? e.message : e);

/** The request of one attempt; throws when the stored webhook cannot make one. */
async function buildRequest(hook: WebhookRow, envelope: Envelope, now: number) {
  const url = deliveryUrl(hook.url, hook.parameters);
  const method = hook.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "DELETE";
  const body = hasBody ? JSON.stringify(envelope) : "";
  const problem = headersProblem(hook.headers);
  if (problem) throw new Error(problem);
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
  return { url, method, headers, body: hasBody ? body : undefined };
}

/**
 * One HTTP attempt with the webhook's method, parameters, headers, timeout and
 * signature. It never throws: a webhook that cannot even make its request (a
 * header value stored before the rules were tightened, say) is a failed
 * attempt like any other, logged and retried by the consumer.
 */
export async function attemptDelivery(
  hook: WebhookRow,
  envelope: Envelope,
): Promise<AttemptResult> {
  let request: Awaited<ReturnType<typeof buildRequest>>;
  try {
    request = await buildRequest(hook, envelope, Date.now());
  } catch (e) {
    return failed(`request not sent: ${messageOf(e)}`);
  }

  const started = Date.now();
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
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
    return failed(
      timedOut ? `timed out after ${hook.timeout} s` : messageOf(e),
      Date.now() - started,
    );
  }
}

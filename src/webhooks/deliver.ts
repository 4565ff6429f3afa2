import { exports } from "cloudflare:workers";
import { parseRetryAfter } from "../platform/rules/backoff";
import { parseStatuses } from "./rules/success-statuses";
import { deliveryUrl, headersProblem } from "./rules/request";
import { signWebhook } from "./rules/signing";
import { webhookUrlProblem } from "../platform/rules/url";
import type { WebhookRow } from "./queries/webhooks";
import type { Envelope } from "./messages";
import { messageOf, type WireRequest, type WireResult } from "./sender";

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

/** The request of one attempt; throws when the stored webhook cannot make one. */
async function buildRequest(
  hook: WebhookRow,
  envelope: Envelope,
  now: number,
  allowPrivate: boolean,
) {
  const url = deliveryUrl(hook.url, hook.parameters);
  // Judged again at every attempt, not only when the webhook was saved: a row stored under
  // older, laxer rules (or edited outside the API) must not reach an address refused now.
  const refused = webhookUrlProblem(url.toString(), allowPrivate);
  if (refused) throw new Error(refused);
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

/** How an attempt reaches the wire: by default the isolated sender, a test may pass another. */
export type Send = (request: WireRequest) => Promise<WireResult>;

/** The loopback call to `WebhookSender`, its own invocation (see sender.ts). */
export const sendIsolated: Send = (request) => exports.WebhookSender.send(request);

/**
 * One HTTP attempt with the webhook's method, parameters, headers, timeout and
 * signature. It never throws: a webhook that cannot even make its request (a
 * header value stored before the rules were tightened, say), a receiver that
 * cannot be reached, or a sender that fails outright is a failed attempt like
 * any other, logged and retried by the consumer.
 */
export async function attemptDelivery(
  hook: WebhookRow,
  envelope: Envelope,
  allowPrivate: boolean,
  send: Send = sendIsolated,
): Promise<AttemptResult> {
  let request: Awaited<ReturnType<typeof buildRequest>>;
  try {
    request = await buildRequest(hook, envelope, Date.now(), allowPrivate);
  } catch (e) {
    return failed(`request not sent: ${messageOf(e)}`);
  }

  const started = Date.now();
  let result: WireResult;
  try {
    result = await send({
      url: request.url.toString(),
      method: request.method,
      headers: [...request.headers],
      body: request.body,
      timeoutSeconds: hook.timeout,
    });
  } catch (e) {
    result = { kind: "failed", error: messageOf(e) };
  }
  const durationMs = Date.now() - started;
  if (result.kind === "timed-out") return failed(`timed out after ${hook.timeout} s`, durationMs);
  if (result.kind === "failed") return failed(result.error, durationMs);
  return {
    statusCode: result.status,
    success: parseStatuses(hook.successStatuses).includes(result.status),
    error: null,
    durationMs,
    retryAfterSeconds: parseRetryAfter(result.retryAfter, Date.now()),
  };
}

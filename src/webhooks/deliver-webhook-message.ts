import { configOf } from "../platform/config";
import { runBatch } from "../db/client";
import {
  type AttemptEffect,
  takeAttempt,
  insertDelivery,
  readDelivery,
  scheduleNextAttempt,
  webhookAfterAttempt,
  type WebhookRow,
} from "./queries/webhooks";
import { retryDelaySeconds } from "../platform/rules/backoff";
import type { Env } from "../platform/env";
import { log } from "../platform/log";
import type { Database } from "../db/client";
import { type AttemptResult, attemptDelivery, type Send, sendIsolated } from "./deliver";
import { envelopeOf, type WebhookMessage } from "./messages";

/** A webhook whose every try failed for this many events in a row is switched off. */
export const FAILED_EVENTS_BEFORE_DISABLE = 5;

/**
 * How long past its timeout an attempt in flight keeps a redelivered copy of
 * its message waiting (the copy then counts the attempt as made, answered or not).
 */
const IN_FLIGHT_GRACE_SECONDS = 30;

type DeliveryMessage = Message<Extract<WebhookMessage, { kind: "delivery" }>>;

/**
 * One delivery message: one attempt of one event at one webhook, logged,
 * retried or given up. Attempts are counted in D1 per event and webhook, not
 * by the queue's `attempts`: a message the queue redelivers (a failed batch,
 * a duplicate) makes no attempt beyond the webhook's `tries`, none before its
 * backoff is over, and none twice.
 */
export async function deliverWebhookMessage(
  env: Env,
  db: Database,
  message: DeliveryMessage,
  send: Send = sendIsolated,
) {
  const { eventId, webhookId } = message.body;
  const { hook, event, delivered, state } = await readDelivery(db, { eventId, webhookId });
  const now = Date.now();
  // The last attempt taken has no result in the log and its busy window is over: the
  // invocation that took it ended first (exceeded limits, evicted…). It was made, as far as
  // `tries` goes, and is logged as failed by whichever copy takes the next step; when it was
  // the last try, that step settles the event as failed instead of dropping it unlogged.
  const lost = state.attempts > state.recorded && state.nextAttemptAt <= now;
  // Deleted or disabled since, delivered or given up already: nothing to do.
  if (
    !hook ||
    !event ||
    hook.status !== "enabled" ||
    delivered ||
    hook.workspaceId !== event.workspaceId ||
    state.attempts > hook.tries ||
    (state.attempts === hook.tries && !lost)
  ) {
    message.ack();
    return;
  }
  if (state.nextAttemptAt > now) {
    // Back before its backoff (or its last attempt) is over: wait out the rest.
    message.retry({ delaySeconds: Math.ceil((state.nextAttemptAt - now) / 1000) });
    return;
  }
  const settling = state.attempts >= hook.tries;
  const attempt = state.attempts + 1;
  const taken = await takeAttempt(db, {
    eventId,
    webhookId,
    seen: state.attempts,
    busyUntil: settling ? now : now + (hook.timeout + IN_FLIGHT_GRACE_SECONDS) * 1000,
    now,
  });
  // Another copy of this message made this attempt; that copy retries or gives up.
  if (!taken) {
    message.ack();
    return;
  }
  const logRow = (
    n: number,
    outcome: Pick<AttemptResult, "statusCode" | "success" | "error" | "durationMs">,
    at: number,
  ) =>
    insertDelivery(db, {
      id: crypto.randomUUID(),
      workspaceId: hook.workspaceId,
      webhookId: hook.id,
      eventId,
      eventType: event.type,
      kind: "http",
      attempt: n,
      ...outcome,
      createdAt: at,
    });
  const lostError = "the attempt's invocation ended before its result was recorded";
  const lostRow = lost
    ? [
        logRow(
          state.attempts,
          { statusCode: null, success: false, error: lostError, durationMs: 0 },
          now,
        ),
      ]
    : [];

  if (settling) {
    await runBatch(db, [
      ...lostRow,
      webhookAfterAttempt(db, hook.id, "failed-event", {
        now,
        disableAfter: FAILED_EVENTS_BEFORE_DISABLE,
      }),
    ]);
    await deadLetter(env, message, state.attempts, lostError);
    message.ack();
    return;
  }

  const result = await attemptDelivery(
    hook,
    envelopeOf(event),
    configOf(env).allowPrivateWebhooks,
    send,
  );
  const gone = result.statusCode === 410;
  const final = result.success || gone || attempt >= hook.tries;
  const failedEvent = !result.success && final;
  const done = Date.now();
  const delaySeconds = final
    ? 0
    : retryDelaySeconds(
        attempt,
        configOf(env).webhookRetryBaseSeconds,
        Math.random(),
        result.retryAfterSeconds,
      );

  const effect = attemptEffect(hook, { success: result.success, gone, failedEvent });
  await runBatch(db, [
    ...lostRow,
    logRow(
      attempt,
      {
        statusCode: result.statusCode,
        success: result.success,
        error: result.error ?? (gone ? "410 Gone: webhook disabled" : null),
        durationMs: result.durationMs,
      },
      done,
    ),
    scheduleNextAttempt(db, { eventId, webhookId, attempt }, done + delaySeconds * 1000),
    ...(effect
      ? [
          webhookAfterAttempt(db, hook.id, effect, {
            now: done,
            disableAfter: FAILED_EVENTS_BEFORE_DISABLE,
          }),
        ]
      : []),
  ]);

  if (!final) {
    message.retry({ delaySeconds });
    return;
  }
  if (failedEvent && !gone)
    await deadLetter(env, message, attempt, result.error ?? result.statusCode);
  message.ack();
}

/**
 * The copy of a given-up delivery in the dead-letter queue, for operators. The delivery log
 * already says the event was given up, so failing to send it must not bring the message back
 * for another attempt.
 */
async function deadLetter(
  env: Env,
  message: DeliveryMessage,
  attempts: number,
  lastError: string | number | null,
) {
  try {
    await env.WEBHOOK_DLQ.send({ ...message.body, attempts, lastError });
  } catch (error) {
    log("error", "webhook dead-letter copy failed", { error });
  }
}

/**
 * What one attempt does to its webhook: a success clears the failure count, a
 * 410 switches it off, and an event that failed every try counts towards
 * switching it off; a failure with tries left changes nothing yet.
 */
function attemptEffect(
  hook: WebhookRow,
  outcome: { success: boolean; gone: boolean; failedEvent: boolean },
): AttemptEffect | null {
  if (outcome.success) return hook.consecutiveFailures > 0 ? "recovered" : null;
  if (outcome.gone) return "gone";
  return outcome.failedEvent ? "failed-event" : null;
}

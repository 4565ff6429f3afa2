import {
  leaseMessage,
  type MessageRow,
  messageState,
  recordFailure,
  recordSent,
} from "../queries/message-delivery";
import { retryDelaySeconds } from "../../platform/rules/backoff";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { backgroundDb } from "../../db/background";
import type { Database } from "../../db/client";
import { deliveryConfigOf } from "./providers/config";
import { providerFor } from "./providers";
import { PROVIDER_TIMEOUT_MS, type SendResult } from "./providers/types";
import { senderOf } from "./sender";

/**
 * How long a lease keeps other deliveries off a message: longer than a send
 * may take (PROVIDER_TIMEOUT_MS) plus reading the sender and recording the
 * outcome, so a live delivery never loses its lease; a delivery that died
 * holding it is replaced once it ends.
 */
export const LEASE_MS = 60_000;

/** A message is tried at most this many times; then it is `failed`. */
export const MAX_ATTEMPTS = 5;

/** One message to deliver, as the queue carries it. */
export interface MessageRef {
  messageId: string;
  workspaceId: string;
}

/**
 * What one delivery came to:
 * - `done`: sent or failed for good by this delivery, or already settled
 *   (sent, failed, canceled, skipped, gone) by another;
 * - `retry`: this attempt failed and the message is scheduled again in
 *   `delaySeconds`;
 * - `wait`: not takeable now (another delivery holds its lease, or it is not
 *   due yet): look again in `delaySeconds`.
 */
export type Delivery =
  | { outcome: "done"; status: "sent" | "failed" | "settled" }
  | { outcome: "retry"; delaySeconds: number; error: string }
  | { outcome: "wait"; delaySeconds: number };

/**
 * Delivers one message once: lease it (a conditional UPDATE),
 * send through the channel's provider with the message's own workspace's
 * sender, record the outcome under that lease. See docs/messages-delivery.md.
 */
export async function deliverCustomerMessage(
  env: Env,
  ref: MessageRef,
  random: () => number = Math.random,
): Promise<Delivery> {
  const handle = await backgroundDb(env, ref.workspaceId);
  if (!handle) {
    // The workspace is gone, its messages with it.
    log("warn", "customer message of a workspace that is gone", { message_id: ref.messageId });
    return { outcome: "done", status: "settled" };
  }
  const { db } = handle;
  const now = Date.now();
  const leaseUntil = now + LEASE_MS;
  const row = await leaseMessage(db, {
    id: ref.messageId,
    workspaceId: ref.workspaceId,
    now,
    leaseUntil,
  });
  if (!row) return notLeased(db, ref, now);

  const config = deliveryConfigOf(env);
  const provider = providerFor(row.channel, config);
  let result: SendResult;
  try {
    const sender = await senderOf(db, row.workspaceId);
    // A lease taken just before a long stall must not send once its lease could have passed.
    if (Date.now() + PROVIDER_TIMEOUT_MS >= leaseUntil) {
      return { outcome: "wait", delaySeconds: Math.ceil(LEASE_MS / 1000) };
    }
    result = await provider.send({
      id: row.id,
      to: row.to,
      subject: row.subject,
      body: row.body,
      sender,
    });
  } catch (error) {
    // A bug or D1 failing before the send: nothing went out; the lease ends and it is retried.
    log("error", "message delivery failed before sending", { message_id: row.id, error });
    throw error;
  }
  return record(db, row, leaseUntil, provider.name, result, config.retryBaseSeconds, random);
}

async function record(
  db: Database,
  row: MessageRow,
  leaseUntil: number,
  provider: string,
  result: SendResult,
  retryBaseSeconds: number,
  random: () => number,
): Promise<Delivery> {
  const now = Date.now();
  if (result.ok) {
    const recorded = await recordSent(db, {
      id: row.id,
      leaseUntil,
      provider,
      providerMessageId: result.providerMessageId,
      sentAt: now,
    });
    if (!recorded) lostLease(row, provider);
    return { outcome: "done", status: "sent" };
  }
  const attempt = row.attempts + 1;
  const retry = result.retryable && attempt < MAX_ATTEMPTS;
  const delaySeconds = retry
    ? retryDelaySeconds(attempt, retryBaseSeconds, random(), result.retryAfterSeconds)
    : 0;
  const recorded = await recordFailure(db, {
    id: row.id,
    leaseUntil,
    provider,
    error: result.error,
    retryAt: retry ? now + delaySeconds * 1000 : null,
  });
  if (!recorded) lostLease(row, provider);
  if (retry) return { outcome: "retry", delaySeconds, error: result.error };
  log("warn", "customer message failed", {
    message_id: row.id,
    attempts: attempt,
    error: result.error,
  });
  return { outcome: "done", status: "failed" };
}

/**
 * The outcome could not be recorded under this delivery's lease: it had
 * passed and another delivery took the message. Cannot happen while a
 * send stays under PROVIDER_TIMEOUT_MS of a LEASE_MS lease; logged if it does.
 */
function lostLease(row: MessageRow, provider: string) {
  log("warn", "customer message outcome not recorded: the delivery's lease had passed", {
    message_id: row.id,
    provider,
  });
}

/** Why a message could not be leased, and when to look again. */
async function notLeased(db: Database, ref: MessageRef, now: number): Promise<Delivery> {
  const state = await messageState(db, ref.messageId, ref.workspaceId);
  if (!state || state.status !== "scheduled") return { outcome: "done", status: "settled" };
  const until = Math.max(state.scheduledFor, state.leaseUntil ?? 0);
  return { outcome: "wait", delaySeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
}

import { messagesCreatedSince } from "../queries/message-delivery";
import type { Env } from "../../platform/env";
import { backgroundDb } from "../../db/background";
import { enqueueMessages } from "./queue";
import { scheduleWakeUp } from "../object/client";

/** The most messages one write can create; more are left to the clock. */
const CREATED_LIMIT = 200;

/**
 * After a write: the scheduled messages it created (at or after `since`, the
 * request's start) go to the queue now if due, and the clock is woken for
 * the earliest later one. One indexed read; no clock call when the write
 * created no later message.
 */
export async function deliverCreated(env: Env, workspaceId: string, since: number): Promise<void> {
  const created = await messagesCreatedSince(backgroundDb(env), {
    workspaceId,
    since,
    limit: CREATED_LIMIT,
  });
  const now = Date.now();
  const due = created.filter((m) => m.scheduledFor <= now);
  await enqueueMessages(
    env,
    due.map((m) => ({ ...m, workspaceId })),
  );
  const later = created.filter((m) => m.scheduledFor > now).map((m) => m.scheduledFor);
  // A write that created more than one read returns: the clock enqueues the rest now.
  if (created.length === CREATED_LIMIT) await scheduleWakeUp(env, workspaceId, now);
  else if (later.length > 0) await scheduleWakeUp(env, workspaceId, Math.min(...later));
}

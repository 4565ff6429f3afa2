import type { Env } from "../../platform/env";
import { enqueueMessages } from "./queue";
import { scheduleWakeUp } from "../object/client";

/**
 * After a write: the scheduled messages it reported creating go to the queue
 * now if due, and the clock is woken for the earliest later one. No read:
 * the write said which; no clock call when it created no later message.
 */
export async function deliverCreated(
  env: Env,
  workspaceId: string,
  created: readonly { id: string; dueAt: number }[],
): Promise<void> {
  const now = Date.now();
  await enqueueMessages(
    env,
    created
      .filter((m) => m.dueAt <= now)
      .map((m) => ({ id: m.id, workspaceId, scheduledFor: m.dueAt })),
  );
  const later = created.filter((m) => m.dueAt > now).map((m) => m.dueAt);
  if (later.length > 0) await scheduleWakeUp(env, workspaceId, Math.min(...later));
}

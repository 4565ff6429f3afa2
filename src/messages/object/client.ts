import type { Env } from "../../platform/env";

/** A workspace's message clock (`MessageClock`), as the rest of the Worker calls it. */
export interface MessageClockClient {
  /** Brings the clock's alarm forward to `at` (never later than it is set). */
  wakeAt(workspaceId: string, at: number): Promise<void>;
}

/** The clock of one workspace, named by its id. */
export const messageClockOf = (env: Env, workspaceId: string): MessageClockClient =>
  env.MESSAGE_CLOCKS.getByName(workspaceId);

/**
 * Tells a workspace's message clock that a message comes due at `at` (ms since
 * the epoch): its alarm is brought forward to `at` if it was set later (or not
 * at all). Call it, after the response, whenever a scheduled message is
 * written or moved earlier; `at` in the past fires the alarm at once.
 */
export async function scheduleWakeUp(env: Env, workspaceId: string, at: number): Promise<void> {
  await messageClockOf(env, workspaceId).wakeAt(workspaceId, at);
}

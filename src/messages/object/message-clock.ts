import { DurableObject } from "cloudflare:workers";
import { tick } from "../delivery/clock";
import type { Env } from "../../platform/env";
import { AlarmLoop } from "../../platform/alarm-loop";
import { settingsAtEntry } from "../../platform/config";
import type { MessageClockClient } from "./client";

/** A tick that failed (D1 or the queue unavailable) is tried again this much later. */
const RETRY_MS = 30_000;

/**
 * One workspace's message clock (binding MESSAGE_CLOCKS, named by the
 * workspace id): its alarm hands the workspace's messages to the queue as
 * they come due, then sets itself for the next one. This is what sends
 * reminders on time under `wrangler dev`, which runs no cron. D1's messages
 * are the schedule, the alarm only the next moment to read them
 * (`scheduleWakeUp` brings it forward).
 */
export class MessageClock extends DurableObject<Env> implements MessageClockClient {
  private readonly loop = new AlarmLoop(this.ctx.storage, {
    keys: ["workspace"],
    run: ({ workspace }) => tick(this.env, workspace),
    retryMs: RETRY_MS,
    failure: "message clock tick failed",
    fields: ({ workspace }) => ({ workspace_id: workspace }),
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Parsed as the object starts; a malformed setting is logged, and fails only the work that
    // reads it (an alarm the runtime gives up on would stop the loop for good).
    settingsAtEntry(env);
  }

  async wakeAt(workspaceId: string, at: number): Promise<void> {
    await this.loop.wakeAt({ workspace: workspaceId }, at);
  }

  override alarm(): Promise<void> {
    return this.loop.alarm();
  }
}

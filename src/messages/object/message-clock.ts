import { DurableObject } from "cloudflare:workers";
import { tick } from "../delivery/clock";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";

/** A tick that failed (D1 or the queue unavailable) is tried again this much later. */
const RETRY_MS = 30_000;

/**
 * One workspace's message clock (binding MESSAGE_CLOCKS, named by the
 * workspace id): its alarm hands the workspace's messages to the queue as
 * they come due, then sets itself for the next one. This is what sends
 * reminders on time under `wrangler dev`, which runs no cron. It keeps no
 * schedule of its own: D1's messages are the schedule, the alarm only the
 * next moment to read them (scheduleWakeUp brings it forward).
 */
export class MessageClock extends DurableObject<Env> {
  /** Brings the alarm forward to `at` (never later than it is set). */
  async wakeAt(workspaceId: string, at: number): Promise<void> {
    await this.ctx.storage.put("workspace", workspaceId);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  override async alarm(): Promise<void> {
    const workspaceId = await this.ctx.storage.get<string>("workspace");
    if (!workspaceId) return;
    let next: number | null;
    try {
      next = await tick(this.env, workspaceId);
    } catch (error) {
      log("error", "message clock tick failed", { workspace_id: workspaceId, error });
      next = Date.now() + RETRY_MS;
    }
    // A wakeAt during the tick may have set an earlier alarm already: keep the earlier.
    const current = await this.ctx.storage.getAlarm();
    if (next !== null && (current === null || next < current)) {
      await this.ctx.storage.setAlarm(next);
    }
  }
}

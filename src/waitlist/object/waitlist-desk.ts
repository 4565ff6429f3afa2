import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { runDesk } from "../desk";

/** A run that failed (D1 or a calendar unavailable) is tried again this much later. */
const RETRY_MS = 15_000;

/**
 * One location's waitlist desk (binding WAITLIST_DESKS, named by workspace
 * and location). Its alarm is the only place offers are made for the
 * location, so runs never overlap: one freed time goes to one entry. It keeps
 * no schedule of its own: D1's freed time, offers and entries are the
 * schedule, the alarm only the next moment to read them.
 */
export class WaitlistDesk extends DurableObject<Env> {
  /** Brings the alarm forward to `at` (never later than it is set). */
  async wakeAt(workspaceId: string, locationId: string, at: number): Promise<void> {
    await this.ctx.storage.put({ workspace: workspaceId, location: locationId });
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  override async alarm(): Promise<void> {
    const stored = await this.ctx.storage.get<string>(["workspace", "location"]);
    const workspaceId = stored.get("workspace");
    const locationId = stored.get("location");
    if (!workspaceId || !locationId) return;
    let next: number | null;
    try {
      next = await runDesk(this.env, workspaceId, locationId);
    } catch (error) {
      log("error", "waitlist desk run failed", { workspace_id: workspaceId, error });
      next = Date.now() + RETRY_MS;
    }
    // A wakeAt during the run may have set an earlier alarm already: keep the earlier.
    const current = await this.ctx.storage.getAlarm();
    if (next !== null && (current === null || next < current)) {
      await this.ctx.storage.setAlarm(next);
    }
  }
}

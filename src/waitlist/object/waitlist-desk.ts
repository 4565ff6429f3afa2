import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../platform/env";
import type { Dispatch } from "../../platform/effects";
import { AlarmLoop } from "../../platform/alarm-loop";
import { settingsAtEntry } from "../../platform/config";
import { runDesk } from "../desk";
import type { WaitlistDeskClient } from "./client";

/** A run that failed (D1 or a calendar unavailable) is tried again this much later. */
const RETRY_MS = 15_000;

/**
 * One location's waitlist desk (binding WAITLIST_DESKS, named by workspace
 * and location). Its alarm is the only place offers are made for the
 * location, so runs never overlap: one freed time goes to one entry. D1's
 * freed time, offers and entries are the schedule, the alarm only the next
 * moment to read them.
 */
export abstract class WaitlistDeskObject extends DurableObject<Env> implements WaitlistDeskClient {
  /**
   * Acts on what a pass wrote (its offers' events and messages): the
   * composition root's dispatcher, given by src/app/objects.ts.
   */
  protected abstract readonly dispatch: Dispatch;

  private readonly loop = new AlarmLoop(this.ctx.storage, {
    keys: ["workspace", "location"],
    run: ({ workspace, location }) =>
      runDesk(this.env, workspace, location, Date.now(), this.dispatch),
    retryMs: RETRY_MS,
    failure: "waitlist desk run failed",
    fields: ({ workspace }) => ({ workspace_id: workspace }),
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Parsed as the object starts; a malformed setting is logged, and fails only the work that
    // reads it (an alarm the runtime gives up on would stop the loop for good).
    settingsAtEntry(env);
  }

  async wakeAt(workspaceId: string, locationId: string, at: number): Promise<void> {
    await this.loop.wakeAt({ workspace: workspaceId, location: locationId }, at);
  }

  override alarm(): Promise<void> {
    return this.loop.alarm();
  }
}

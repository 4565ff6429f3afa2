import { DurableObject } from "cloudflare:workers";
import { backgroundDb, movedAway } from "../../db/background";
import { collectingEffects } from "../../db/effects";
import { allShards, sweepDb } from "../../db/shards";
import { type Dispatch, EffectSink } from "../../platform/effects";
import { externalCalendarById } from "../queries/external-calendars";
import { syncFound } from "../sync";
import type { Env } from "../../platform/env";
import { AlarmLoop, type Next } from "../../platform/alarm-loop";
import { settingsAtEntry } from "../../platform/config";
import { ApiError } from "../../platform/errors";
import { type CalendarSyncClient, SYNC_EVERY_MS } from "./client";

/** Where the clock keeps its calendar's workspace (beside the loop's `id`). */
const WORKSPACE_KEY = "workspace";

/**
 * The refresh clock of one external calendar (binding CALENDAR_SYNCS, named
 * by the external calendar's id): its alarm refetches the calendar every 15
 * minutes, under `wrangler dev` too (no cron, no outside trigger). It keeps
 * nothing but the id: D1's row is the calendar, and once the row is gone the
 * clock stops.
 */
export abstract class CalendarSyncObject extends DurableObject<Env> implements CalendarSyncClient {
  /**
   * Acts on what a sync wrote (busy time it removed, offered to the
   * location's waitlist as a request's would be): the composition root's
   * dispatcher, given by src/app/objects.ts.
   */
  protected abstract readonly dispatch: Dispatch;

  private readonly loop = new AlarmLoop(this.ctx.storage, {
    keys: ["id"],
    run: ({ id }) => this.refresh(id),
    // Rounds on a period, set before each runs: whatever happens to one, the next is due.
    everyMs: SYNC_EVERY_MS,
    retryMs: SYNC_EVERY_MS,
    failure: "external calendar refresh failed",
    fields: ({ id }) => ({ external_calendar_id: id }),
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Parsed as the object starts; a malformed setting is logged, and fails only the work that
    // reads it (an alarm the runtime gives up on would stop the loop for good).
    settingsAtEntry(env);
  }

  /**
   * Starts the clock (a new calendar): the first refresh 15 minutes from now.
   * An alarm already set is never more than a period away, so it stays.
   */
  async start(id: string): Promise<void> {
    await this.loop.wakeAt({ id }, Date.now() + SYNC_EVERY_MS);
  }

  /** The calendar was removed: no more refreshes. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  override alarm(): Promise<void> {
    return this.loop.alarm();
  }

  private async refresh(id: string): Promise<Next> {
    const workspaceId = await this.workspaceOf(id);
    const handle = workspaceId ? await backgroundDb(this.env, workspaceId) : null;
    // The calendar (or its whole workspace) is gone: the clock stops.
    if (!workspaceId || !handle) return "stop";
    const effects = new EffectSink();
    const db = collectingEffects(handle.db, effects);
    try {
      const found = await externalCalendarById(db, id);
      if (!found) return "stop";
      await syncFound({ scope: { db, workspaceId }, env: this.env }, found, Date.now());
      await this.dispatch(this.env, effects.take());
    } catch (error) {
      // A calendar that cannot be fetched or read keeps its busy time and says why in
      // `status` (the sync recorded it), unlogged; anything else (D1, the calendar object, a
      // move pausing the workspace) is logged by the loop. Either way the clock goes on.
      if (movedAway(error, workspaceId) || !(error instanceof ApiError)) throw error;
    }
    return null;
  }

  /**
   * The calendar's workspace, which finds its shard: kept beside the id once
   * known. A clock started before shards keeps only the id: its row is looked
   * for on every database once (the directory first, where those rows were).
   */
  private async workspaceOf(id: string): Promise<string | null> {
    const kept = await this.ctx.storage.get<string>(WORKSPACE_KEY);
    if (kept) return kept;
    for (const shard of allShards(this.env)) {
      const found = await externalCalendarById(sweepDb(this.env, shard), id);
      if (found) {
        await this.ctx.storage.put(WORKSPACE_KEY, found.row.workspaceId);
        return found.row.workspaceId;
      }
    }
    return null;
  }
}

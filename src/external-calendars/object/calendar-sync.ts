import { DurableObject } from "cloudflare:workers";
import { wakeDesks } from "../../waitlist/wake";
import { createDb } from "../../db/client";
import { externalCalendarById } from "../queries/external-calendars";
import { SYNC_EVERY_MS } from "../refresh";
import { syncFound } from "../sync";
import type { Env } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { log } from "../../platform/log";

/**
 * The refresh clock of one external calendar (binding CALENDAR_SYNCS, named
 * by the external calendar's id): its alarm refetches the calendar every 15
 * minutes, under `wrangler dev` too (no cron, no outside trigger). It keeps
 * nothing but the id: D1's row is the calendar, and once the row is gone the
 * clock stops.
 */
export class CalendarSync extends DurableObject<Env> {
  /** Starts the clock (a new calendar): the first refresh 15 minutes from now. */
  async start(id: string): Promise<void> {
    await this.ctx.storage.put("id", id);
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + SYNC_EVERY_MS);
    }
  }

  /** The calendar was removed: no more refreshes. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const id = await this.ctx.storage.get<string>("id");
    if (!id) return;
    // The next round is set before this one runs: a sync the runtime stops (CPU, memory, an
    // eviction) must not stop the clock with it.
    await this.ctx.storage.setAlarm(Date.now() + SYNC_EVERY_MS);
    const db = createDb(this.env.DB);
    try {
      const found = await externalCalendarById(db, id);
      if (!found) {
        await this.ctx.storage.deleteAlarm();
        await this.ctx.storage.deleteAll();
        return;
      }
      const since = Date.now();
      await syncFound(
        { scope: { db, workspaceId: found.row.workspaceId }, env: this.env },
        found,
        since,
      );
      // Busy time the sync removed is offered to the location's waitlist, as a request's would be.
      await wakeDesks(this.env, found.row.workspaceId, since);
    } catch (error) {
      // A calendar that cannot be fetched or read keeps its busy time and says why in
      // `status` (the sync recorded it); anything else (D1, the calendar object) is logged.
      // Either way the clock goes on.
      if (!(error instanceof ApiError)) {
        log("error", "external calendar refresh failed", { external_calendar_id: id, error });
      }
    }
  }
}

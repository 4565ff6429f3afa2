import type { Env } from "../../platform/env";

/** How often an external calendar is fetched again on its own. */
export const SYNC_EVERY_MS = 15 * 60_000;

/** An external calendar's refresh clock (`CalendarSync`), as the rest of the Worker calls it. */
export interface CalendarSyncClient {
  /** Starts the clock: every 15 minutes from now on (an already running clock keeps its time). */
  start(id: string): Promise<void>;
  /** Stops it for good (the calendar was removed). */
  stop(): Promise<void>;
}

/** The clock of one external calendar, named by its id. */
export const calendarSyncOf = (env: Env, id: string): CalendarSyncClient =>
  env.CALENDAR_SYNCS.getByName(id);

/** Starts a new calendar's refresh clock: every 15 minutes from now on. */
export async function startRefresh(env: Env, id: string): Promise<void> {
  await calendarSyncOf(env, id).start(id);
}

/** Stops a removed calendar's clock (a clock that outlives its row stops at its next alarm). */
export async function stopRefresh(env: Env, id: string): Promise<void> {
  await calendarSyncOf(env, id).stop();
}

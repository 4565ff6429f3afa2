import type { Env } from "../platform/env";

/** How often an external calendar is fetched again on its own. */
export const SYNC_EVERY_MS = 15 * 60_000;

/** Starts a new calendar's refresh clock (`CalendarSync`): every 15 minutes from now on. */
export async function startRefresh(env: Env, id: string): Promise<void> {
  await env.CALENDAR_SYNCS.getByName(id).start(id);
}

/** Stops a removed calendar's clock (a clock that outlives its row stops at its next alarm). */
export async function stopRefresh(env: Env, id: string): Promise<void> {
  await env.CALENDAR_SYNCS.getByName(id).stop();
}

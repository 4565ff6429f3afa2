import type { Env } from "../../platform/env";

/** A location's waitlist desk (`WaitlistDesk`), as the rest of the Worker calls it. */
export interface WaitlistDeskClient {
  /** Brings the desk's alarm forward to `at` (never later than it is set). */
  wakeAt(workspaceId: string, locationId: string, at: number): Promise<void>;
}

/** A desk's name: one per location of a workspace. */
const deskName = (workspaceId: string, locationId: string) => `${workspaceId}/${locationId}`;

/** The desk of one location of a workspace. */
export const waitlistDeskOf = (
  env: Env,
  workspaceId: string,
  locationId: string,
): WaitlistDeskClient => env.WAITLIST_DESKS.getByName(deskName(workspaceId, locationId));

/** Brings a location's waitlist desk forward to run at `at` (now or earlier: at once). */
export async function wakeDesk(
  env: Env,
  workspaceId: string,
  locationId: string,
  at: number,
): Promise<void> {
  await waitlistDeskOf(env, workspaceId, locationId).wakeAt(workspaceId, locationId, at);
}

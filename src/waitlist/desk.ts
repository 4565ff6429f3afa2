import { runBatch } from "../db/client";
import { locationStaffNames } from "../db/queries/messages";
import {
  deskContextRead,
  dropFreed,
  dueFreedRead,
  endedOffersRead,
  expireEntries,
  nextDueRead,
  offerLapsed,
} from "../db/queries/waitlist";
import { read, readTogether, run } from "../db/reads";
import type { Scope } from "../db/scope";
import { settingsFrom } from "../domain/messages";
import type { Env } from "../env";
import { log } from "../lib/log";
import { backgroundDb } from "../webhooks/db";
import { dispatchPending } from "../webhooks/dispatch";
import { deliverCreated } from "../delivery/wake-up";
import { Matcher } from "./matcher";

/** Bounds of one pass's reads; what is left is read by the next pass, a second later. */
const FREED_PER_RUN = 200;
const ENDED_PER_RUN = 100;

/**
 * One run of a location's waitlist desk at `now`: offers that ended unbooked
 * go back to waiting (their time passed on to the next in line), entries past
 * their window expire, and freed time is offered, oldest entry first, each
 * offer a real reservation. Answers when to run next (null: nothing pending).
 */
export async function runDesk(
  env: Env,
  workspaceId: string,
  locationId: string,
  now = Date.now(),
): Promise<number | null> {
  const scope: Scope = { db: backgroundDb(env), workspaceId };
  const first = await readTogether(scope.db, {
    context: deskContextRead(scope, locationId),
    names: read([locationStaffNames(scope, locationId)] as const, ([rows]) => rows),
    freed: dueFreedRead(scope, locationId, now, FREED_PER_RUN),
    ended: endedOffersRead(scope, locationId, now, ENDED_PER_RUN),
  });
  const { location, workspace } = first.context;
  const handled = first.freed.map((f) => f.id);
  if (!location || !workspace) {
    if (handled.length > 0) await runBatch(scope.db, [dropFreed(scope, locationId, handled)]);
    return null;
  }

  // An offer that ended unbooked: the entry waits again, and its time is free for the next.
  await runBatch(scope.db, [
    ...first.ended.map((e) =>
      offerLapsed(scope, e, JSON.stringify({ start: e.offerStart, end: e.offerEnd }), now),
    ),
    ...expireEntries(scope, locationId, now),
  ]);

  const desk = new Matcher(env, scope, {
    settings: settingsFrom(first.context.settings),
    workspace,
    location: { id: location.id, name: location.name, timezone: location.timezone },
    stafferNames: new Map(first.names.map((n) => [n.id, n.firstName])),
    services: new Map(),
  });
  const shared = first.freed.filter((f) => f.entryId === null);
  const lapsed = first.ended.filter((e) => e.offerStart !== null && e.offerEnd !== null);
  if (shared.length > 0 || lapsed.length > 0) await desk.offerFreed(shared, lapsed, now);
  for (const own of first.freed.filter((f) => f.entryId !== null)) {
    await desk.offerOwnWindow(own, now);
  }

  if (handled.length > 0) await runBatch(scope.db, [dropFreed(scope, locationId, handled)]);
  if (desk.offers > 0) {
    // The offers' messages and events, now rather than at the next sweep.
    await Promise.all([
      deliverCreated(env, workspaceId, now).catch((error: unknown) =>
        log("error", "waitlist message dispatch failed", { error }),
      ),
      dispatchPending(env, { workspaceId, maxRounds: 1 }).catch((error: unknown) =>
        log("error", "waitlist event dispatch failed", { error }),
      ),
    ]);
  }
  const more = first.freed.length === FREED_PER_RUN || first.ended.length === ENDED_PER_RUN;
  if (more) return Date.now() + 1_000;
  return run(scope.db, nextDueRead(scope, locationId));
}

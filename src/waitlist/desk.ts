import { createDb, runBatch } from "../db/client";
import { D1Counter, instrumentD1 } from "../db/instrumented-d1";
import { locationStaffNames } from "../messages/queries/messages";
import {
  deskContextRead,
  dropFreed,
  dueFreedRead,
  endedOffersRead,
  expireEntries,
  nextDueRead,
  offerLapsed,
} from "./queries/waitlist";
import { read, readTogether, run } from "../db/reads";
import type { Scope } from "../db/scope";
import { settingsFrom } from "../messages/rules";
import { WAITLIST } from "./rules";
import type { Env } from "../platform/env";
import { log } from "../platform/log";
import { dispatchPending } from "../webhooks/dispatch";
import { deliverCreated } from "../messages/delivery/wake-up";
import { Matcher } from "./matcher";

/** Bounds of one pass's reads; what is left is read by the next pass, a second later. */
const FREED_PER_RUN = 200;
/** Three statements each: with the expiries, one batch stays under D1's 100. */
const ENDED_PER_RUN = 30;

/**
 * One pass of a location's waitlist desk at `now`: offers that ended unbooked
 * go back to waiting (their time passed on to the next in line), entries past
 * their window expire, and freed time is offered, oldest entry first, each
 * offer a real reservation. Freed time is dropped only once it was looked at
 * in full; what a pass's bounds left is read again a second later. Answers
 * when to run next (null: nothing pending).
 */
export async function runDesk(
  env: Env,
  workspaceId: string,
  locationId: string,
  now = Date.now(),
): Promise<number | null> {
  const counter = new D1Counter();
  const scope: Scope = { db: createDb(instrumentD1(env.DB, counter)), workspaceId };
  const first = await readTogether(scope.db, {
    context: deskContextRead(scope, locationId),
    names: read([locationStaffNames(scope, locationId)] as const, ([rows]) => rows),
    freed: dueFreedRead(scope, locationId, now, FREED_PER_RUN),
    ended: endedOffersRead(scope, locationId, now, ENDED_PER_RUN),
  });
  const { location, workspace } = first.context;
  if (!location || !workspace) {
    const all = first.freed.map((f) => f.id);
    if (all.length > 0) await runBatch(scope.db, [dropFreed(scope, locationId, all)]);
    return null;
  }

  // An offer that ended unbooked: the entry waits again (or, past its lapses, expires), and
  // its time is free for the next.
  await runBatch(scope.db, [
    ...first.ended.flatMap((e) => offerLapsed(scope, e, WAITLIST.maxLapses, now)),
    ...expireEntries(scope, locationId, now),
  ]);

  const matcher = new Matcher(env, scope, counter, {
    settings: settingsFrom(first.context.settings),
    workspace,
    location: { id: location.id, name: location.name, timezone: location.timezone },
    stafferNames: new Map(first.names.map((n) => [n.id, n.firstName])),
    services: new Map(),
  });
  let done: number[];
  try {
    done = await matcher.offer(first.freed, first.ended, now);
    if (done.length > 0) await runBatch(scope.db, [dropFreed(scope, locationId, done)]);
  } finally {
    // The offers' messages and events now (also those of a pass that failed half-way),
    // rather than at the next sweep.
    if (matcher.offers > 0) await dispatchOffers(env, workspaceId, now);
    log("info", "waitlist desk pass", {
      workspace_id: workspaceId,
      location_id: locationId,
      freed: first.freed.length,
      ended: first.ended.length,
      candidates: matcher.looked,
      offers: matcher.offers,
      candidate_rows_read: matcher.candidateRowsRead,
      rows_read: counter.rowsRead,
      d1_statements: counter.statements,
      ms: Date.now() - now,
    });
  }
  const more =
    done.length < first.freed.length ||
    first.freed.length === FREED_PER_RUN ||
    first.ended.length === ENDED_PER_RUN;
  if (more) return Date.now() + 1_000;
  return run(scope.db, nextDueRead(scope, locationId));
}

const dispatchOffers = (env: Env, workspaceId: string, since: number) =>
  Promise.all([
    deliverCreated(env, workspaceId, since).catch((error: unknown) =>
      log("error", "waitlist message dispatch failed", { error }),
    ),
    dispatchPending(env, { workspaceId, maxRounds: 1 }).catch((error: unknown) =>
      log("error", "waitlist event dispatch failed", { error }),
    ),
  ]);

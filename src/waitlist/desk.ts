import { type Database, runBatch } from "../db/client";
import { backgroundDb, movedAway } from "../db/background";
import { collectingEffects } from "../db/effects";
import { type Dispatch, EffectSink } from "../platform/effects";
import { D1Counter } from "../db/instrumented-d1";
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
import { addressOf } from "../platform/rules/address";
import { log } from "../platform/log";
import { dispatchEvents } from "../webhooks/dispatch";
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
  dispatch: Dispatch = dispatchOffers,
): Promise<number | null> {
  const counter = new D1Counter();
  const handle = await backgroundDb(env, workspaceId, counter);
  // The workspace is gone: nothing left to offer, ever.
  if (!handle) return null;
  try {
    return await deskPass(env, handle.db, counter, workspaceId, locationId, now, dispatch);
  } catch (error) {
    // A move paused the workspace's writes: the desk's loop runs again shortly, on its new shard.
    movedAway(error, workspaceId);
    throw error;
  }
}

async function deskPass(
  env: Env,
  database: Database,
  counter: D1Counter,
  workspaceId: string,
  locationId: string,
  now: number,
  dispatch: Dispatch,
): Promise<number | null> {
  const effects = new EffectSink();
  const db = collectingEffects(database, effects);
  const scope: Scope = { db, workspaceId };
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
    location: {
      id: location.id,
      name: location.name,
      address: addressOf(location),
      timezone: location.timezone,
    },
    stafferNames: new Map(first.names.map((n) => [n.id, n.firstName])),
    services: new Map(),
  });
  let done: number[];
  try {
    done = await matcher.offer(first.freed, first.ended, now);
    if (done.length > 0) await runBatch(scope.db, [dropFreed(scope, locationId, done)]);
  } finally {
    // The offers' messages and events now (also those of a pass that failed half-way: what
    // its committed batches wrote), rather than at the next sweep. Time this desk's own writes
    // freed is left out: its next run is read from D1 once the pass is over.
    const produced = effects
      .take()
      .filter((e) => !(e.kind === "freed" && e.locationId === locationId));
    if (produced.length > 0)
      await dispatch(env, produced).catch((error: unknown) =>
        log("error", "waitlist dispatch failed", { error }),
      );
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

/**
 * What a pass run outside the Durable Object (tests, a script) dispatches: the
 * offers' events and messages, as the composition root's dispatcher would.
 */
const dispatchOffers: Dispatch = async (env, effects) => {
  const messages = effects.flatMap((e) =>
    e.kind === "message" ? [{ id: e.messageId, dueAt: e.dueAt, workspaceId: e.workspaceId }] : [],
  );
  const workspaces = new Set(effects.flatMap((e) => (e.kind === "event" ? [e.workspaceId] : [])));
  await Promise.all([
    ...[...workspaces].map((workspaceId) =>
      dispatchEvents(
        env,
        workspaceId,
        effects.flatMap((e) =>
          e.kind === "event" && e.workspaceId === workspaceId ? [e.eventId] : [],
        ),
      ),
    ),
    ...[...new Set(messages.map((m) => m.workspaceId))].map((workspaceId) =>
      deliverCreated(
        env,
        workspaceId,
        messages.filter((m) => m.workspaceId === workspaceId),
      ),
    ),
  ]);
};

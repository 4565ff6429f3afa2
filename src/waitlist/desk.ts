import { runBatch } from "../db/client";
import { engineInputs } from "../availability/engine-input";
import { loadAvailability } from "../db/queries/availability";
import { isGuardFailure } from "../db/constraints";
import { locationStaffNames } from "../db/queries/messages";
import {
  candidatesRead,
  deskContextRead,
  dropFreed,
  dueFreedRead,
  endedOffersRead,
  expireEntries,
  type FreedRow,
  nextDueRead,
  offerLapsed,
  type WaitlistEntryRow,
  waitingEntryRead,
} from "../db/queries/waitlist";
import { read, readTogether, run } from "../db/reads";
import type { Scope } from "../db/scope";
import type { CartService, Interval } from "../domain/availability";
import { bufferOf, effectivePrice } from "../domain/catalogue/service-terms";
import { settingsFrom } from "../domain/messages";
import { firstWaitlistFit, localDays, windowDays } from "../domain/waitlist";
import type { Env } from "../env";
import { ApiError, InvalidError } from "../lib/errors";
import { log } from "../lib/log";
import { entryServices, entryTimes } from "../views/waitlist-entry";
import { backgroundDb } from "../webhooks/db";
import { dispatchPending } from "../webhooks/dispatch";
import { deliverCreated } from "../delivery/wake-up";
import { makeOffer, type OfferContext } from "./offer";

/** Bounds of one run; what is left is read by the next run, a second later. */
const FREED_PER_RUN = 200;
const ENDED_PER_RUN = 100;
const PAGE = 25;
const CANDIDATES_PER_RUN = 100;
const OFFERS_PER_RUN = 20;
/** The longest window an entry has: freed time never needs more days than this looked at. */
const MAX_DAYS = 63;

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

  const desk = new Desk(env, scope, {
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

/** One run's matching: candidates in order, each placed on the calendars as read. */
class Desk {
  offers = 0;
  private looked = 0;

  constructor(
    private readonly env: Env,
    private readonly scope: Scope,
    private readonly ctx: OfferContext,
  ) {}

  /** Freed time (and lapsed offers' time) goes to the oldest waiting entries it suits. */
  async offerFreed(freed: FreedRow[], lapsed: WaitlistEntryRow[], now: number): Promise<void> {
    const intervals: Interval[] = [
      ...freed.map((f) => ({ start: f.startsAt, end: f.endsAt })),
      ...lapsed.map((e) => ({ start: e.offerStart ?? 0, end: e.offerEnd ?? 0 })),
    ];
    const days = localDays(intervals, this.ctx.location.timezone, MAX_DAYS);
    const excluded: string[] = [];
    const query = {
      locationId: this.ctx.location.id,
      days,
      stafferIds: unique(freed.flatMap((f) => (f.stafferId ? [f.stafferId] : []))),
      resourceIds: unique(freed.flatMap((f) => (f.resourceId ? [f.resourceId] : []))),
      serviceIds: unique(lapsed.flatMap((e) => entryServices(e).map((s) => s.service_uuid))),
    };
    while (this.looked < CANDIDATES_PER_RUN && this.offers < OFFERS_PER_RUN) {
      const candidates = await run(
        this.scope.db,
        candidatesRead(this.scope, { ...query, excluded, limit: PAGE }),
      );
      if (candidates.length === 0) return;
      for (const entry of candidates) {
        excluded.push(entry.id);
        this.looked++;
        await this.tryEntry(entry, days, now);
        if (this.offers >= OFFERS_PER_RUN) return;
      }
      if (candidates.length < PAGE) return;
    }
  }

  /** A new entry: time already free in its window is offered to it at once. */
  async offerOwnWindow(freed: FreedRow, now: number): Promise<void> {
    if (!freed.entryId || this.offers >= OFFERS_PER_RUN) return;
    const [entry] = await run(this.scope.db, waitingEntryRead(this.scope, freed.entryId));
    if (!entry) return;
    await this.tryEntry(entry, windowDays(entry.fromDate, entry.toDate), now);
  }

  /**
   * The earliest fitting start on `days` within the entry's window, offered;
   * when a calendar refuses it (another write took the time since the read),
   * the calendars are read again and the entry tried once more.
   */
  private async tryEntry(entry: WaitlistEntryRow, days: string[], now: number): Promise<void> {
    const dates = days.filter((d) => d >= entry.fromDate && d <= entry.toDate);
    if (dates.length === 0) return;
    for (let attempt = 0; attempt < 2; attempt++) {
      const fit = await this.fitFor(entry, dates, now);
      if (!fit) return;
      try {
        await makeOffer(this.env, this.scope, this.ctx, entry, fit, now);
        this.offers++;
        return;
      } catch (error) {
        if (error instanceof ApiError && error.code === "slot_unavailable") continue;
        // The entry changed (deleted, or booked) or its services no longer fit the catalogue.
        if (isGuardFailure(error) || error instanceof InvalidError) return;
        throw error;
      }
    }
  }

  /** Reads the calendars of the entry's services over its dates and places it (one round trip). */
  private async fitFor(entry: WaitlistEntryRow, dates: string[], now: number) {
    const wanted = entryServices(entry);
    const loaded = await loadAvailability(this.scope, {
      locationId: entry.locationId,
      serviceIds: unique(wanted.map((s) => s.service_uuid)),
      fromDate: dates[0] ?? entry.fromDate,
      toDate: dates.at(-1) ?? entry.toDate,
    });
    const inputs = engineInputs(loaded);
    if (!inputs) return null;
    const rows = new Map(loaded.services.map((s) => [s.id, s]));
    const cart: CartService[] = [];
    for (const s of wanted) {
      const row = rows.get(s.service_uuid);
      if (!row || !loaded.offeredAt.has(row.id)) return null;
      (this.ctx.services as Map<string, { name: string; price: number }>).set(row.id, {
        name: row.name,
        price: effectivePrice(row),
      });
      const performers = inputs.performersOf(row.id).map((p) => p.id);
      const stafferIds = s.staffer_uuid
        ? performers.filter((id) => id === s.staffer_uuid)
        : performers;
      cart.push({
        durationMin: row.duration,
        bufferMin: bufferOf(row),
        stafferIds,
        resourceIds: inputs.resourcesOf(row.id),
      });
    }
    const fit = firstWaitlistFit({
      location: inputs.rules,
      services: cart,
      staffers: [...inputs.calendars.values()],
      resources: inputs.resources,
      dates,
      times: entryTimes(entry),
      passed: JSON.parse(entry.passed) as Interval[],
      now,
    });
    return fit && { start: fit.start, stafferIds: fit.assignments.map((a) => a.stafferId) };
  }
}

const unique = <T>(values: T[]) => [...new Set(values)];

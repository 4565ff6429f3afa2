import { engineInputs } from "../calendar/availability/engine-input";
import { loadAvailability } from "../calendar/queries/availability";
import { isGuardFailure } from "../db/constraints";
import {
  candidatesRead,
  type FreedRow,
  publicOfferUseRead,
  type WaitlistEntryRow,
  waitingEntryRead,
} from "./queries/waitlist";
import { run } from "../db/reads";
import type { Scope } from "../db/scope";
import { type CartService, sessionAskOf } from "../calendar/rules";
import { bufferOf, effectivePrice } from "../catalogue/rules/service-terms";
import { PUBLIC_HOLDS } from "../platform/rules/public-holds";
import { PUBLIC_BOOKINGS } from "../platform/rules/public-visit";
import { firstWaitlistFit, localDays, PUBLIC_OFFERS, windowDays } from "./rules";
import type { D1Counter } from "../db/instrumented-d1";
import type { Env } from "../platform/env";
import { ApiError, InvalidError } from "../platform/errors";
import { entryPassed, entryServices, entryTimes } from "./stored-entry";
import { makeOffer, type OfferContext } from "./offer";

/** Bounds of one pass; what is left is read by the next pass, a second later. */
const PAGE = 25;
const CANDIDATES_PER_RUN = 1_000;
const OFFERS_PER_RUN = 20;
/** The longest window an entry has: freed time never needs more days than this looked at. */
const MAX_DAYS = 63;

/**
 * One pass's matching: candidates in order, each placed on the calendars as
 * read. Its bounds keep a pass short; `offer` answers which freed rows it
 * looked at in full, and the desk keeps the others for its next pass.
 */
export class Matcher {
  offers = 0;
  looked = 0;
  /** Rows D1 read for the candidate queries: what matching costs as the list grows. */
  candidateRowsRead = 0;
  /** The workspace's daily offers to widget entries are used up: such entries are passed by. */
  private publicBudgetSpent = false;
  /**
   * Visitors found at one of their bounds in this pass: their other entries are passed by
   * without reading again (a pass makes offers, it never gives a visitor room back).
   */
  private readonly visitorsAtBound = new Set<string>();
  /** The calendars as last read, for these services over these days (dropped by every offer). */
  private calendars: {
    services: Set<string>;
    from: string;
    to: string;
    loaded: Awaited<ReturnType<typeof loadAvailability>>;
  } | null = null;

  constructor(
    private readonly env: Env,
    private readonly scope: Scope,
    private readonly counter: D1Counter,
    private readonly ctx: OfferContext,
  ) {}

  /**
   * Offers freed time (and lapsed offers' time) to the oldest waiting entries
   * it suits, then new entries their own windows; answers the ids of the freed
   * rows done with. Shared time is looked at over at most MAX_DAYS days from
   * its earliest day (rows starting later wait for the next pass) and is kept
   * whole when the pass ran out of offers; a day with more older entries that
   * do not fit than a pass looks at is given up after them.
   */
  async offer(freed: FreedRow[], lapsed: WaitlistEntryRow[], now: number): Promise<number[]> {
    const done: number[] = [];
    const zone = this.ctx.location.timezone;
    const shared = freed.filter((f) => f.entryId === null).sort((a, b) => a.startsAt - b.startsAt);
    const offered = lapsed.filter((e) => e.offerStart !== null && e.offerEnd !== null);
    if (shared.length > 0 || offered.length > 0) {
      const intervals = [
        ...shared.map((f) => ({ start: f.startsAt, end: f.endsAt })),
        ...offered.map((e) => ({ start: e.offerStart ?? 0, end: e.offerEnd ?? 0 })),
      ].sort((a, b) => a.start - b.start);
      const days = localDays(intervals, zone, MAX_DAYS);
      const last = days.at(-1) ?? "";
      const inSpan = shared.filter(
        (f) => (localDays([{ start: f.startsAt, end: f.startsAt + 1 }], zone, 1)[0] ?? "") <= last,
      );
      const complete = await this.offerShared(inSpan, offered, days, now);
      if (complete) done.push(...inSpan.map((f) => f.id));
      // A new entry's own window would see freed time the older entries have not had in full
      // yet: it waits for the next pass.
      else return done;
    }
    for (const own of freed.filter((f) => f.entryId !== null)) {
      if (this.offers >= OFFERS_PER_RUN) break;
      if (!(await this.offerOwnWindow(own, now))) break;
      done.push(own.id);
    }
    return done;
  }

  /** Shared freed time to the oldest entries it suits; false when the pass ran out of offers. */
  private async offerShared(
    freed: FreedRow[],
    lapsed: WaitlistEntryRow[],
    days: string[],
    now: number,
    /** Services the time suits besides the freed calendars' and the lapsed offers'. */
    services: string[] = [],
  ): Promise<boolean> {
    const excluded: string[] = [];
    const query = {
      locationId: this.ctx.location.id,
      days,
      stafferIds: unique(freed.flatMap((f) => (f.stafferId ? [f.stafferId] : []))),
      resourceIds: unique(freed.flatMap((f) => (f.resourceId ? [f.resourceId] : []))),
      serviceIds: unique([
        ...services,
        ...lapsed.flatMap((e) => entryServices(e).map((s) => s.service_uuid)),
      ]),
    };
    while (this.looked < CANDIDATES_PER_RUN) {
      const before = this.counter.rowsRead;
      const candidates = await run(
        this.scope.db,
        candidatesRead(this.scope, { ...query, excluded, limit: PAGE }),
      );
      this.candidateRowsRead += this.counter.rowsRead - before;
      if (candidates.length === 0) return true;
      // One read of the calendars for the whole page, not one per candidate.
      await this.read(
        candidates.flatMap((e) => entryServices(e).map((x) => x.service_uuid)),
        days[0] ?? "",
        days.at(-1) ?? "",
      );
      for (const entry of candidates) {
        if (this.offers >= OFFERS_PER_RUN) return false;
        excluded.push(entry.id);
        this.looked++;
        // Time held by a write in flight: the pass stops here rather than hand it to a younger
        // entry once that write gives it back; the next pass (a second later) starts again
        // from the oldest.
        if ((await this.tryEntry(entry, days, now)) === "contended") return false;
      }
      if (candidates.length < PAGE) return true;
    }
    return true;
  }

  /**
   * A new entry: time already free in its window is offered at once, to the
   * oldest waiting entry it suits (this one, unless an older one waits for
   * the same day): the day of the entry's first fit is matched like freed
   * time. False when that matching was cut short (the row is kept).
   */
  private async offerOwnWindow(freed: FreedRow, now: number): Promise<boolean> {
    if (!freed.entryId) return true;
    for (let round = 0; round < 3; round++) {
      const [entry] = await run(this.scope.db, waitingEntryRead(this.scope, freed.entryId));
      if (!entry) return true;
      const fit = await this.fitFor(entry, windowDays(entry.fromDate, entry.toDate), now);
      if (!fit) return true;
      const day = localDays(
        [{ start: fit.start, end: fit.start + 1 }],
        this.ctx.location.timezone,
        1,
      );
      const offers = this.offers;
      const services = entryServices(entry).map((s) => s.service_uuid);
      if (!(await this.offerShared([], [], day, now, services))) return false;
      // Nobody took the day's time (this entry included): nothing more to try now.
      if (this.offers === offers) return true;
    }
    return true;
  }

  /**
   * The earliest fitting start on `days` within the entry's window, offered;
   * when a calendar refuses it (another write took the time since the read),
   * the calendars are read again and the entry tried once more.
   */
  private async tryEntry(
    entry: WaitlistEntryRow,
    days: string[],
    now: number,
  ): Promise<"offered" | "no fit" | "contended"> {
    const dates = days.filter((d) => d >= entry.fromDate && d <= entry.toDate);
    if (dates.length === 0) return "no fit";
    for (let attempt = 0; attempt < 2; attempt++) {
      const fit = await this.fitFor(entry, dates, now);
      if (!fit) return "no fit";
      if (!(await this.mayOffer(entry, now))) return "no fit";
      // Whatever happens next, the calendars as read are out of date.
      this.calendars = null;
      try {
        await makeOffer(this.env, this.scope, this.ctx, entry, fit, now);
        this.offers++;
        return "offered";
      } catch (error) {
        if (error instanceof ApiError && error.code === "slot_unavailable") continue;
        // The entry changed (deleted, or booked) or its services no longer fit the catalogue.
        if (isGuardFailure(error) || error instanceof InvalidError) return "no fit";
        throw error;
      }
    }
    // D1 shows the time free, the calendars refuse it twice: a write still holds it.
    return "contended";
  }

  /**
   * Whether an entry a publishable key joined may have an offer now: its
   * visitor holds fewer than a widget visitor's live holds, has bookings of
   * the day left, and neither it nor the workspace has used up the day's
   * offers. Otherwise it keeps waiting (and its place) and the time goes to
   * the next entry; the offer's batch checks the same again. Staff's entries
   * always may.
   */
  private async mayOffer(entry: WaitlistEntryRow, now: number): Promise<boolean> {
    if (!entry.visitor) return true;
    if (this.publicBudgetSpent || this.visitorsAtBound.has(entry.visitor)) return false;
    const at = Date.now();
    const use = await run(
      this.scope.db,
      publicOfferUseRead(this.scope, entry.visitor, at, {
        offers: now - PUBLIC_OFFERS.windowSeconds * 1000,
        bookings: at - PUBLIC_BOOKINGS.windowSeconds * 1000,
      }),
    );
    if (use.workspaceOffers >= PUBLIC_OFFERS.perWorkspace) {
      this.publicBudgetSpent = true;
      return false;
    }
    const within =
      use.holds < PUBLIC_HOLDS.perHolder &&
      use.bookings < PUBLIC_BOOKINGS.perVisitor &&
      use.offers < PUBLIC_OFFERS.perVisitor;
    if (!within) this.visitorsAtBound.add(entry.visitor);
    return within;
  }

  /** Reads the calendars of these services over these days (one round trip), unless read already. */
  private async read(serviceIds: string[], from: string, to: string) {
    const c = this.calendars;
    if (c && serviceIds.every((id) => c.services.has(id)) && c.from <= from && c.to >= to) {
      return c.loaded;
    }
    const loaded = await loadAvailability(this.scope, {
      locationId: this.ctx.location.id,
      serviceIds: unique(serviceIds),
      fromDate: from,
      toDate: to,
    });
    this.calendars = { services: new Set(serviceIds), from, to, loaded };
    return loaded;
  }

  /** Places the entry on the calendars over its dates. */
  private async fitFor(entry: WaitlistEntryRow, dates: string[], now: number) {
    const wanted = entryServices(entry);
    const loaded = await this.read(
      wanted.map((s) => s.service_uuid),
      dates[0] ?? entry.fromDate,
      dates.at(-1) ?? entry.toDate,
    );
    const inputs = engineInputs(loaded);
    if (!inputs) return null;
    const rows = new Map(loaded.services.map((s) => [s.id, s]));
    const cart: CartService[] = [];
    for (const s of wanted) {
      const row = rows.get(s.service_uuid);
      if (!row || !loaded.offeredAt.has(row.id)) return null;
      this.ctx.services.set(row.id, {
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
        // A class: a seat in an open session fits too (one seat; entries take no party size).
        session: sessionAskOf(row, 1),
      });
    }
    const fit = firstWaitlistFit({
      location: inputs.rules,
      services: cart,
      staffers: [...inputs.calendars.values()],
      resources: inputs.resources,
      dates,
      times: entryTimes(entry),
      passed: entryPassed(entry),
      now,
    });
    return fit && { start: fit.start };
  }
}

const unique = <T>(values: T[]) => [...new Set(values)];

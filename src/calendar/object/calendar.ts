import { DurableObject } from "cloudflare:workers";
import { compareCalendars } from "../audit";
import { calendarEntriesOf, fenceAndRead } from "../ledger";
import type { CalendarAudit, CalendarEntry, ClaimRequest, ClaimResult, Settlement } from "../types";
import { HOLD_TTL_MS } from "../types";
import type { Interval } from "../rules";
import { backgroundDb, movedAway } from "../../db/background";
import { instrumentD1 } from "../../db/instrumented-d1";
import { settingsAtEntry } from "../../platform/config";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { CalendarStore } from "./calendar-store";
import { SeatCount } from "./seat-count";
import { ExternalBusy } from "./external-busy";

/** How soon a settlement that could not reach D1 is tried again. */
const SETTLE_RETRY_MS = 10_000;
/** How long a claim waits for time another write is freeing (its confirm follows its answer). */
const MAX_FREEING_WAIT_MS = 250;
const FREEING_POLL_MS = 10;
/**
 * How long a claim waits for entries another write is replacing, when that
 * write gives way to it (see `claim`). The other write gives them back as soon
 * as it is refused; longer means it is committing (its confirm ends the lock)
 * or died (its settlement does).
 */
const MAX_REPLACING_WAIT_MS = 1_000;

/**
 * The only writer of one calendar's busy time: a staffer's, or one unit of a
 * resource (a room, a chair), which is the same kind of calendar without
 * working hours (see calendar/ids.ts). Every check-and-claim runs
 * synchronously against the object's own SQLite storage, with no await in
 * between: an await on outside I/O would open the input gate and let another
 * request interleave between the check and the claim.
 *
 * A write holds its new entries and locks the entries it replaces until it
 * confirms; a hold nobody confirms is settled against D1 (behind a fence) by
 * the alarm, never simply dropped. See docs/concurrency.md.
 */
export class Calendar extends DurableObject<Env> {
  private readonly store: CalendarStore;
  private readonly external: ExternalBusy;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Parsed as the object starts; a malformed setting is logged (the calendar reads none).
    settingsAtEntry(env);
    this.store = new CalendarStore(ctx.storage.sql);
    this.external = new ExternalBusy(ctx.storage.sql);
  }

  /**
   * An external calendar's busy time becomes exactly `flat` (`[start, end, …]`
   * pairs, epoch ms): one call carries the whole set, applied in one
   * transaction, so every claim sees the old set or the new one. D1 was
   * written first with `seq`; an older sync arriving late changes nothing.
   * Busy time is a fact, not a claim: it is laid over bookings (like a
   * blocked spot), and the bookings it covers come back as `conflicts`.
   */
  async replaceExternal(
    owner: ClaimRequest["owner"],
    source: string,
    seq: number,
    flat: number[],
  ): Promise<{ applied: boolean; conflicts: string[] }> {
    if (!this.store.loaded()) await this.rebuild(owner.workspaceId, owner.calendarId);
    const conflicts = this.ctx.storage.transactionSync(() =>
      this.external.replace(source, seq, flat, Date.now()),
    );
    return { applied: conflicts !== null, conflicts: conflicts ?? [] };
  }

  /** An external calendar was removed (D1 first): its busy time goes, for good. */
  removeExternal(source: string): void {
    this.ctx.storage.transactionSync(() => this.external.remove(source));
  }

  /** Atomically checks the entries against live busy time and holds them. */
  async claim(request: ClaimRequest): Promise<ClaimResult> {
    // An object that never loaded D1 (new, reset, or from before this flag) must not trust its
    // empty storage: it would grant time D1 already books.
    if (!this.store.loaded()) {
      await this.rebuild(request.owner.workspaceId, request.owner.calendarId);
    }
    const replaces = request.replaces ?? [];
    for (let waited = 0; ; waited += FREEING_POLL_MS) {
      const { result, freeable } = this.tryClaim(request, replaces);
      if (result.ok) {
        await this.scheduleAlarm();
        return result;
      }
      // Time another write is freeing (a reschedule's old slot, a cancelled booking) stays
      // busy until that write confirms, which it does just after answering its client. A
      // claim that meets only such time (or a full session whose freed seats would do)
      // waits a moment for the confirm instead of refusing a client who acted on that
      // answer. Bounded, so two writes never wait on each other.
      const freeing = result.reason === "overlap" && freeable;
      if (freeing && waited < MAX_FREEING_WAIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, FREEING_POLL_MS));
        continue;
      }
      // Two writes replacing the same entries in several calendars (a reservation's booking
      // and its DELETE, two changes of one booking) may each lock them in some calendars first
      // and be refused "replacing" in the others: if both gave up, neither would win. So one
      // waits for the other (wait-die by hold id): the claim whose hold id sorts before every
      // other write replacing these entries waits; the others are refused at once and give
      // their calendars back, which this claim then gets. Waits only ever point from a smaller
      // id to a larger one, so no two writes wait for each other.
      const outranks =
        result.reason === "replacing" &&
        this.store.replacers(result.ids, request.holdId).every((other) => request.holdId < other);
      if (!outranks || waited >= MAX_REPLACING_WAIT_MS) return result;
      await new Promise((resolve) => setTimeout(resolve, FREEING_POLL_MS));
    }
  }

  private tryClaim(
    request: ClaimRequest,
    replaces: string[],
  ): { result: ClaimResult; freeable: boolean } {
    const now = Date.now();
    return this.ctx.storage.transactionSync(() => {
      const refuse = (result: ClaimResult, freeable = false) => ({ result, freeable });
      const contested = this.store.contested(replaces, request.holdId);
      if (contested.length > 0) return refuse({ ok: false, reason: "replacing", ids: contested });
      const ignored = new Set(replaces);
      const found = new Map<string, CalendarEntry>();
      const seats = new SeatCount();
      for (const entry of request.entries) {
        const taken = this.store.byId(entry.id);
        const hits = taken
          ? [taken]
          : this.store
              .overlapping(entry.start, entry.end, now)
              .filter((hit) => !ignored.has(hit.id))
              // A blocked spot may cover bookings (a sick day), not a live reservation (but a
              // publishable one gives way to it, below).
              .filter((hit) => request.checkConflicts || hit.kind === "held");
        for (const hit of hits) {
          // A seat of the same session shares the time: it only counts against the capacity.
          if (!taken && entry.session && hit.session?.key === entry.session.key) seats.mate(hit);
          else found.set(hit.id, hit);
        }
        if (entry.session) seats.add(entry.session);
      }
      let conflicts = [...found.values()];
      // Staff win over a publishable key's hold: decided here, with the check, so a customer
      // booking that hold at the same moment either locked it first (and wins) or is refused.
      const displaced = request.displaces ? this.store.displaceable(conflicts, request.holdId) : [];
      if (displaced.length > 0) {
        const gone = new Set(displaced.map((d) => d.id));
        conflicts = conflicts.filter((c) => !gone.has(c.id));
      }
      if (conflicts.length > 0) {
        const ids = conflicts.map((c) => c.id);
        const freeable = this.store.contested(ids, request.holdId).length === ids.length;
        return refuse({ ok: false, reason: "overlap", conflicts }, freeable);
      }
      // Seats are counted here, in the same synchronous step that holds them: N claims on C
      // free seats are granted exactly min(N, C) times, and first bookers of a new session
      // (the same key) join one session instead of refusing each other.
      if (seats.overfull()) {
        const full = seats.full();
        const freed = new Set(
          this.store.contested(
            full.map((m) => m.id),
            request.holdId,
          ),
        );
        return refuse(
          { ok: false, reason: "overlap", conflicts: full, full: true },
          seats.fitsWithout(freed),
        );
      }
      this.store.hold(request.holdId, now + HOLD_TTL_MS, request.entries, [
        ...replaces,
        ...displaced.map((d) => d.id),
      ]);
      return refuse(displaced.length > 0 ? { ok: true, displaced } : { ok: true });
    });
  }

  /**
   * Drops entries of publishable holds a staff write took over elsewhere: the
   * write ended their reservation in D1, so these entries are dead time.
   */
  drop(ids: string[]): void {
    this.ctx.storage.transactionSync(() => this.store.drop(ids));
  }

  /** The write reached D1: its entries become permanent and what they replace goes. */
  confirm(holdId: string): void {
    this.ctx.storage.transactionSync(() => this.store.confirm(holdId));
  }

  /** The write certainly did not reach D1 (its batch rolled back): drop what it claimed. */
  release(holdId: string): void {
    this.ctx.storage.transactionSync(() => this.store.release(holdId));
  }

  /**
   * The write may or may not have reached D1 (it failed ambiguously): fence
   * the hold in D1, then keep exactly what D1 holds. `ids` are the write's
   * own entries and the ones it replaced, so the answer holds even when the
   * alarm settled the hold first.
   */
  async settle(
    holdId: string,
    ids: { entries: string[]; replaces: string[] },
  ): Promise<Settlement> {
    // The hold's own ids too: the publishable holds it took over are known only here, and
    // an unread one would count as absent from D1 (and be dropped though the write failed).
    const known = new Set([...ids.entries, ...ids.replaces, ...this.store.idsOf(holdId)]);
    const inD1 = await this.fenceAndRead([holdId], [...known]);
    // Replaced entries stay locked by this hold until it settles, so their absence is proof;
    // new entries could already have been replaced by a later write.
    const committed =
      ids.replaces.length > 0
        ? ids.replaces.every((id) => !inD1.has(id))
        : ids.entries.every((id) => inD1.has(id));
    this.ctx.storage.transactionSync(() => this.store.settle(holdId, inD1, committed));
    return { committed };
  }

  /** Every live entry (confirmed or claimed by a write in flight) overlapping [start, end), or all. */
  entries(range?: Interval): CalendarEntry[] {
    const now = Date.now();
    return range ? this.store.overlapping(range.start, range.end, now) : this.store.all(now);
  }

  /** Compares this calendar with D1, with no write landing in between (both sides live at one instant). */
  async audit(workspaceId: string, calendarId: string): Promise<CalendarAudit> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      const d1 = await this.entriesInD1(workspaceId, calendarId, now);
      return compareCalendars(this.store.all(now), d1);
    });
  }

  /**
   * Makes the confirmed time exactly D1's (after a restore, or a reset of the
   * namespace). Live holds stay: their writes settle them as usual. Nothing
   * can confirm while D1 is read, so no confirmed write is missed.
   */
  async rebuild(workspaceId: string, calendarId: string): Promise<CalendarAudit> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const now = Date.now();
      const d1 = await this.entriesInD1(workspaceId, calendarId, now);
      this.ctx.storage.transactionSync(() => this.store.replaceConfirmed(d1));
      // Reservations loaded from D1 need the alarm that drops them once expired.
      await this.scheduleAlarm();
      return compareCalendars(this.store.all(now), d1);
    });
  }

  /**
   * Holds left unconfirmed (a Worker died mid-write, a confirm was lost) are
   * settled against D1; reservations whose time is up are dropped (every read
   * already ignored them from their expiry on).
   */
  override async alarm(): Promise<void> {
    this.ctx.storage.transactionSync(() => this.store.dropExpired(Date.now()));
    const expired = this.store.expiredHolds(Date.now());
    if (expired.length > 0) {
      const ids = expired.flatMap((holdId) => this.store.idsOf(holdId));
      try {
        const inD1 = await this.fenceAndRead(expired, ids);
        this.ctx.storage.transactionSync(() => {
          for (const holdId of expired) this.store.settle(holdId, inD1);
        });
      } catch (error) {
        // D1 is unreachable, which is exactly when unsettled holds pile up. The runtime
        // stops retrying a failing alarm after a few tries, so re-arm it ourselves.
        log("error", "calendar settle failed", { error });
        await this.ctx.storage.setAlarm(Date.now() + SETTLE_RETRY_MS);
        return;
      }
    }
    await this.scheduleAlarm();
  }

  /**
   * The calendar's workspace, from the object's name (`<workspace>/<calendar>`,
   * see `calendarFor`): what finds its shard, for the alarm too, which no
   * caller names a workspace for.
   */
  private workspace(): string | null {
    const name = this.ctx.id.name;
    const slash = name?.indexOf("/") ?? -1;
    return name && slash > 0 ? name.slice(0, slash) : null;
  }

  /**
   * The workspace's D1 on its shard, behind the placement check. Null when
   * the directory knows no such workspace (gone, and its rows with it). An
   * object without a name (never the case for `calendarFor`'s) can only be
   * from before shards: its workspace's rows are in the directory's database.
   */
  private async ledger(workspaceId = this.workspace()): Promise<D1Database | null> {
    if (!workspaceId) return instrumentD1(this.env.DB);
    return (await backgroundDb(this.env, workspaceId))?.d1 ?? null;
  }

  private async fenceAndRead(holdIds: string[], ids: string[]) {
    const workspaceId = this.workspace();
    const db = await this.ledger(workspaceId);
    if (!db) return new Map<string, CalendarEntry>();
    try {
      return await fenceAndRead(db, workspaceId, holdIds, ids);
    } catch (error) {
      // A move paused the workspace's writes: the caller retries (the alarm re-arms itself).
      if (workspaceId) movedAway(error, workspaceId);
      throw error;
    }
  }

  private async entriesInD1(workspaceId: string, calendarId: string, now: number) {
    const db = await this.ledger(this.workspace() ?? workspaceId);
    if (!db) return [];
    try {
      return await calendarEntriesOf(db, workspaceId, calendarId, now);
    } catch (error) {
      movedAway(error, workspaceId);
      throw error;
    }
  }

  private async scheduleAlarm(): Promise<void> {
    const next = this.store.nextExpiry();
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}

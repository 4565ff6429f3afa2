import { and, asc, eq, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { idIn, inSubquery, insertRows } from "../../db/bounded";
import type { Database } from "../../db/client";
import { producing } from "../../db/effects";
import { events } from "../../db/schema";
import type { Effect } from "../../platform/effects";

/** Every kind of event the outbox records; webhooks subscribe to these. */
export const EVENT_TYPES = [
  "booking-created",
  "booking-canceled",
  "booking-rescheduled",
  "booking-completed",
  "booking-status-changed",
  "booking-staffer-changed",
  "booking-service-replaced",
  "booking-notes-updated",
  "order-created",
  "order-paid",
  "order-cancelled",
  "order-refunded",
  "customer-created",
  "waitlist-offered",
  "quota-reached",
  "payment-succeeded",
  "payment-refunded",
  "payment-failed",
  "package-issued",
  "package-credit-used",
  "membership-renewed",
  "membership-past-due",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The outbox row for a change, to go in the same batch as the change itself.
 * `late` fills payload fields only known inside the batch (an order number
 * bumped by an earlier statement of it).
 */
export function eventStatement(
  db: Database,
  workspaceId: string,
  type: EventType,
  data: unknown,
  late: Record<string, SQL> = {},
) {
  const patches = Object.entries(late);
  const payload =
    patches.length === 0
      ? data
      : sql`json_set(${JSON.stringify(data)}, ${sql.join(
          patches.map(([field, value]) => sql`${`$.${field}`}, ${value}`),
          sql`, `,
        )})`;
  const id = crypto.randomUUID();
  return producing(
    db.insert(events).values({ id, workspaceId, type, payload, createdAt: Date.now() }),
    [eventEffect(workspaceId, id)],
  );
}

/** An outbox row the write inserted, for the webhook queue once it committed. */
export const eventEffect = (workspaceId: string, eventId: string): Effect => ({
  kind: "event",
  workspaceId,
  eventId,
});

/**
 * Outbox rows for many events of one type (a series' bookings) in as few
 * statements as their size allows, not one statement each.
 */
export const eventsInsert = (
  db: Database,
  workspaceId: string,
  type: EventType,
  data: readonly unknown[],
) => {
  const createdAt = Date.now();
  const rows = data.map((payload) => ({
    id: crypto.randomUUID(),
    workspaceId,
    type,
    payload,
    createdAt,
  }));
  // Every statement names all the rows: they commit in one batch, and the dispatch counts each once.
  const effects = rows.map((r) => eventEffect(workspaceId, r.id));
  return insertRows(db, events, rows).map((s) => producing(s, effects));
};

export type EventRow = typeof events.$inferSelect;

/*
 * Handing events to the queue runs outside any request (the cron sweep) or
 * for every workspace at once, so these take the database, not a Scope; a
 * request's own dispatch narrows them to its workspace.
 */

/**
 * Leases up to `limit` events not yet on the queue, oldest first: those
 * never leased, or whose lease is older than `leaseMs` (the isolate died
 * before it sent them). One UPDATE picks and leases (D1 runs statements one
 * at a time), so concurrent dispatchers never take the same event.
 */
export async function leasePendingEvents(
  db: Database,
  lease: {
    now: number;
    leaseMs: number;
    limit: number;
    workspaceId?: string | undefined;
    createdBefore?: number | undefined;
  },
): Promise<{ id: string }[]> {
  const candidates = db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        isNull(events.dispatchedAt),
        or(isNull(events.claimedAt), lt(events.claimedAt, lease.now - lease.leaseMs)),
        lease.workspaceId ? eq(events.workspaceId, lease.workspaceId) : undefined,
        lease.createdBefore !== undefined ? lte(events.createdAt, lease.createdBefore) : undefined,
      ),
    )
    .orderBy(asc(events.createdAt))
    .limit(lease.limit);
  return db
    .update(events)
    .set({ claimedAt: lease.now })
    .where(inSubquery(events.id, candidates))
    .returning({ id: events.id });
}

/**
 * Leases the events a write just inserted, as `leasePendingEvents` does but
 * by id: those already on the queue or leased by another within its lease
 * (the sweep) are left out, as are ids no row has (an insert its condition
 * skipped).
 */
export async function leaseEvents(
  db: Database,
  lease: { ids: readonly string[]; now: number; leaseMs: number },
): Promise<{ id: string }[]> {
  return db
    .update(events)
    .set({ claimedAt: lease.now })
    .where(
      and(
        idIn(events.id, lease.ids),
        isNull(events.dispatchedAt),
        or(isNull(events.claimedAt), lt(events.claimedAt, lease.now - lease.leaseMs)),
      ),
    )
    .returning({ id: events.id });
}

/** Marks events as on the queue. */
export async function markDispatched(db: Database, ids: readonly string[], at: number) {
  await db
    .update(events)
    .set({ dispatchedAt: at })
    // One JSON parameter for the ids: 100 ids plus the timestamp would pass D1's limit.
    .where(idIn(events.id, ids));
}

/**
 * The workspaces with events not yet on the queue (or leased longer than
 * `leaseMs` ago), created up to `createdBefore`: a sweep reads them from a
 * whole shard, then leases each workspace's events through its own handle.
 */
export async function workspacesWithPendingEvents(
  db: Database,
  query: { now: number; leaseMs: number; createdBefore: number; limit: number },
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ workspaceId: events.workspaceId })
    .from(events)
    .where(
      and(
        isNull(events.dispatchedAt),
        or(isNull(events.claimedAt), lt(events.claimedAt, query.now - query.leaseMs)),
        lte(events.createdAt, query.createdBefore),
      ),
    )
    .limit(query.limit);
  return rows.map((r) => r.workspaceId);
}

/** The workspace of an outbox event, if this database has it. */
export async function eventWorkspace(db: Database, eventId: string): Promise<string | null> {
  const [row] = await db
    .select({ workspaceId: events.workspaceId })
    .from(events)
    .where(eq(events.id, eventId));
  return row?.workspaceId ?? null;
}

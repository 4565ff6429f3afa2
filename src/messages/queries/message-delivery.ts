import { and, asc, eq, gt, gte, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { messages, notificationSettings } from "../../db/schema";

/*
 * Delivering customer messages runs outside any request (queue consumer,
 * clock alarm, cron sweep), so these take the database, not a Scope; each
 * names the workspace where it acts for one.
 */

export type MessageRow = typeof messages.$inferSelect;

/** A message that may be taken now: scheduled, due, and nobody's lease running. */
const takeable = (now: number) =>
  and(
    eq(messages.status, "scheduled"),
    lte(messages.scheduledFor, now),
    or(isNull(messages.leaseUntil), lt(messages.leaseUntil, now)),
  );

/**
 * Leases one message for one delivery: a conditional UPDATE, so of two
 * deliveries of the same message (a duplicate queue message, the clock and a
 * request both enqueuing it) exactly one gets the row back. `leaseUntil` is
 * the lease's token: the outcome is recorded only while it is still the row's.
 */
export async function leaseMessage(
  db: Database,
  lease: { id: string; workspaceId: string; now: number; leaseUntil: number },
): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ leaseUntil: lease.leaseUntil })
    .where(
      and(
        eq(messages.id, lease.id),
        eq(messages.workspaceId, lease.workspaceId),
        takeable(lease.now),
      ),
    )
    .returning();
  return row;
}

/** Whose lease a record is guarded by: the row must still be scheduled under this lease. */
const underLease = (id: string, leaseUntil: number) =>
  and(eq(messages.id, id), eq(messages.status, "scheduled"), eq(messages.leaseUntil, leaseUntil));

/** The message went out; false when the lease was no longer this delivery's. */
export async function recordSent(
  db: Database,
  sent: {
    id: string;
    leaseUntil: number;
    provider: string;
    providerMessageId: string | null;
    sentAt: number;
  },
): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({
      status: "sent",
      provider: sent.provider,
      providerMessageId: sent.providerMessageId,
      sentAt: sent.sentAt,
      attempts: sql`${messages.attempts} + 1`,
      error: null,
      leaseUntil: null,
    })
    .where(underLease(sent.id, sent.leaseUntil))
    .returning({ id: messages.id });
  return rows.length > 0;
}

/**
 * A failed attempt: scheduled again for `retryAt`, or `failed` for good when
 * `retryAt` is null. The lease is released either way. False when the lease
 * was no longer this delivery's.
 */
export async function recordFailure(
  db: Database,
  failure: {
    id: string;
    leaseUntil: number;
    provider: string;
    error: string;
    retryAt: number | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({
      provider: failure.provider,
      attempts: sql`${messages.attempts} + 1`,
      error: failure.error,
      leaseUntil: null,
      ...(failure.retryAt === null
        ? { status: "failed" as const }
        : { scheduledFor: failure.retryAt }),
    })
    .where(underLease(failure.id, failure.leaseUntil))
    .returning({ id: messages.id });
  return rows.length > 0;
}

export interface DueMessage {
  id: string;
  workspaceId: string;
  scheduledFor: number;
}

/**
 * Messages to hand to the queue, oldest first: every workspace's (the cron
 * sweep, by messages_due_idx) or one's (its clock, by
 * messages_workspace_due_idx). `dueBefore` leaves the newest to their own
 * enqueuer (the sweep does not double a request's or a clock's work).
 */
export function dueMessages(
  db: Database,
  query: {
    now: number;
    limit: number;
    workspaceId?: string | undefined;
    dueBefore?: number | undefined;
    /** The last message of the previous page (keyset paging in the order below). */
    after?: DueMessage | undefined;
  },
): Promise<DueMessage[]> {
  const after = query.after;
  return db
    .select({
      id: messages.id,
      workspaceId: messages.workspaceId,
      scheduledFor: messages.scheduledFor,
    })
    .from(messages)
    .where(
      and(
        query.workspaceId ? eq(messages.workspaceId, query.workspaceId) : undefined,
        takeable(query.now),
        query.dueBefore !== undefined ? lte(messages.scheduledFor, query.dueBefore) : undefined,
        after
          ? or(
              gt(messages.scheduledFor, after.scheduledFor),
              and(eq(messages.scheduledFor, after.scheduledFor), gt(messages.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(messages.scheduledFor), asc(messages.id))
    .limit(query.limit);
}

/**
 * When a workspace's clock must look again, after `now`: the next message
 * coming due, or the end of a running lease (a delivery that may die holding
 * it). Null when the workspace has nothing scheduled.
 */
export async function nextWakeUp(
  db: Database,
  workspaceId: string,
  now: number,
): Promise<number | null> {
  const scheduled = and(eq(messages.workspaceId, workspaceId), eq(messages.status, "scheduled"));
  const [next] = await db
    .select({ at: sql<number | null>`min(${messages.scheduledFor})` })
    .from(messages)
    .where(and(scheduled, gt(messages.scheduledFor, now)));
  const [lease] = await db
    .select({ at: sql<number | null>`min(${messages.leaseUntil})` })
    .from(messages)
    .where(and(scheduled, lte(messages.scheduledFor, now), gte(messages.leaseUntil, now)));
  const times = [next?.at, lease?.at].filter((t): t is number => typeof t === "number");
  return times.length === 0 ? null : Math.min(...times);
}

/** A workspace's notification settings document, as stored (null when never saved). */
export async function readNotificationSettings(
  db: Database,
  workspaceId: string,
): Promise<unknown> {
  const [row] = await db
    .select({ settings: notificationSettings.settings })
    .from(notificationSettings)
    .where(eq(notificationSettings.workspaceId, workspaceId));
  return row?.settings ?? null;
}

/** Where a message stands, for a delivery that could not lease it (done, leased, not yet due). */
export async function messageState(
  db: Database,
  id: string,
  workspaceId: string,
): Promise<Pick<MessageRow, "status" | "scheduledFor" | "leaseUntil"> | undefined> {
  const [row] = await db
    .select({
      status: messages.status,
      scheduledFor: messages.scheduledFor,
      leaseUntil: messages.leaseUntil,
    })
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.workspaceId, workspaceId)));
  return row;
}

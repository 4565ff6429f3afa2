import { and, asc, desc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderCheckouts, orderLines, packages } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";

export type OrderCheckoutRow = typeof orderCheckouts.$inferSelect;

/** The order's newest checkout attempt (null before the first), as a read beside the order's. */
export const latestOrderCheckout = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select()
        .from(orderCheckouts)
        .where(whereIn(scope, orderCheckouts, eq(orderCheckouts.orderId, orderId)))
        .orderBy(desc(orderCheckouts.attempt))
        .limit(1),
    ],
    ([rows]) => rows[0] ?? null,
  );

/** The checkout a provider session belongs to (any workspace: the event's shard holds it). */
export const orderCheckoutOfSession = (db: Database, sessionId: string) =>
  db.select().from(orderCheckouts).where(eq(orderCheckouts.sessionId, sessionId));

/** A new attempt: of two requests at once only one inserts it (the other gets no row back). */
export const claimOrderCheckout = (db: Database, row: typeof orderCheckouts.$inferInsert) =>
  db
    .insert(orderCheckouts)
    .values(row)
    .onConflictDoNothing({ target: [orderCheckouts.orderId, orderCheckouts.attempt] })
    .returning({ id: orderCheckouts.id });

/** The provider's session of an attempt still being made: it is open. */
export const orderCheckoutOpened = (
  scope: Scope,
  id: string,
  set: Pick<OrderCheckoutRow, "sessionId" | "checkoutUrl" | "expiresAt" | "providerCustomer">,
) =>
  scope.db
    .update(orderCheckouts)
    .set({ ...set, status: "open", updatedAt: Date.now() })
    .where(
      whereIn(
        scope,
        orderCheckouts,
        eq(orderCheckouts.id, id),
        eq(orderCheckouts.status, "creating"),
      ),
    )
    .returning({ id: orderCheckouts.id });

/** Ends an open checkout (paid, refunded, expired): only once, whoever ends it first. */
export const closeOrderCheckout = (
  db: Database,
  sessionId: string,
  set: { status: "complete" | "expired"; failure?: string | null; paymentIntent?: string },
) =>
  db
    .update(orderCheckouts)
    .set({ ...set, updatedAt: Date.now() })
    .where(
      and(
        eq(orderCheckouts.sessionId, sessionId),
        or(eq(orderCheckouts.status, "open"), eq(orderCheckouts.status, "creating")),
      ),
    )
    .returning({ id: orderCheckouts.id });

/** Batch condition: no other delivery of this session's event paid the order with it. */
export const orderCheckoutStillOpen = (sessionId: string) =>
  sql`exists (select 1 from ${orderCheckouts} where ${orderCheckouts.sessionId} = ${sessionId} and ${orderCheckouts.status} in ('open', 'creating'))`;

/** Whether any package line of the order sells a membership (its card is then kept). */
export const membershipLines = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select({ id: orderLines.id })
        .from(orderLines)
        .innerJoin(packages, eq(packages.id, orderLines.refId))
        .where(
          whereIn(
            scope,
            orderLines,
            eq(orderLines.orderId, orderId),
            eq(orderLines.kind, "package"),
            and(eq(packages.workspaceId, scope.workspaceId), isNotNull(packages.renews)),
          ),
        )
        .limit(1),
    ],
    ([rows]) => rows.length > 0,
  );

/** Open order checkouts past their expiry that no provider event closed (the reconcile asks). */
export const overdueOrderCheckouts = (
  db: Database,
  before: number,
  limit: number,
  workspaceId?: string,
) =>
  db
    .select()
    .from(orderCheckouts)
    .where(
      and(
        eq(orderCheckouts.status, "open"),
        lt(orderCheckouts.expiresAt, before),
        workspaceId === undefined ? undefined : eq(orderCheckouts.workspaceId, workspaceId),
      ),
    )
    .orderBy(asc(orderCheckouts.expiresAt))
    .limit(limit);

/** The checkout that paid the order (none: it was not paid online), as a read beside the order's. */
export const paidOrderCheckout = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select({ id: orderCheckouts.id, amount: orderCheckouts.amount })
        .from(orderCheckouts)
        .where(
          whereIn(
            scope,
            orderCheckouts,
            eq(orderCheckouts.orderId, orderId),
            eq(orderCheckouts.status, "complete"),
            isNull(orderCheckouts.failure),
          ),
        )
        .limit(1),
    ],
    ([rows]) => rows[0] ?? null,
  );

/** The refund of what a checkout took, pending until the provider answers: written once. */
export const orderRefundPending = (scope: Scope, checkoutId: string, amount: number, at: number) =>
  scope.db
    .update(orderCheckouts)
    .set({ refundStatus: "pending", refundAmount: amount, refundRequestedAt: at, updatedAt: at })
    .where(
      whereIn(
        scope,
        orderCheckouts,
        eq(orderCheckouts.id, checkoutId),
        isNull(orderCheckouts.refundStatus),
      ),
    );

/** The order's refund still waiting for the provider's answer, if any. */
export const pendingOrderRefundOf = (scope: Scope, orderId: string) =>
  scope.db
    .select()
    .from(orderCheckouts)
    .where(
      whereIn(
        scope,
        orderCheckouts,
        eq(orderCheckouts.orderId, orderId),
        eq(orderCheckouts.refundStatus, "pending"),
      ),
    )
    .limit(1);

/**
 * Order refunds pending since between `after` and `before`: their answer was
 * lost (the reconcile repeats them; older ones are past the key's lifetime).
 */
export const stalePendingOrderRefunds = (
  db: Database,
  window: { after: number; before: number },
  limit: number,
  workspaceId?: string,
) =>
  db
    .select()
    .from(orderCheckouts)
    .where(
      and(
        eq(orderCheckouts.refundStatus, "pending"),
        lt(orderCheckouts.refundRequestedAt, window.before),
        gt(orderCheckouts.refundRequestedAt, window.after),
        workspaceId === undefined ? undefined : eq(orderCheckouts.workspaceId, workspaceId),
      ),
    )
    .orderBy(asc(orderCheckouts.refundRequestedAt))
    .limit(limit);

/** The provider's answer to an order refund: written once, over the pending refund only. */
export const orderRefundAnswered = (
  db: Database,
  checkoutId: string,
  answer:
    | { refundStatus: "succeeded"; refundRef: string }
    | { refundStatus: "failed"; refundFailure: string },
) =>
  db
    .update(orderCheckouts)
    .set({ ...answer, updatedAt: Date.now() })
    .where(and(eq(orderCheckouts.id, checkoutId), eq(orderCheckouts.refundStatus, "pending")));

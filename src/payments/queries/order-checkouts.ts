import { and, asc, desc, eq, isNotNull, lt, or, sql } from "drizzle-orm";
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
  set: { status: "complete" | "expired"; failure?: string | null },
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

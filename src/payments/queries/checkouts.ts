import { and, asc, eq, lt, or, sql } from "drizzle-orm";
import { paymentCheckouts } from "../../db/schema";
import type { Database } from "../../db/client";
import { type Scope, whereIn } from "../../db/scope";

export type CheckoutRecord = typeof paymentCheckouts.$inferSelect;
export type NewCheckout = typeof paymentCheckouts.$inferInsert;

export const selectCheckout = (scope: Scope, reservationId: string) =>
  scope.db
    .select()
    .from(paymentCheckouts)
    .where(whereIn(scope, paymentCheckouts, eq(paymentCheckouts.reservationId, reservationId)));

/**
 * A new checkout, or the next attempt of one whose provider session was never
 * opened (`creating`): only over the attempt the writer read, so of two
 * requests at once one claims the attempt and the other changes nothing.
 */
export const upsertCheckoutAttempt = (db: Database, readAttempt: number | null, row: NewCheckout) =>
  db
    .insert(paymentCheckouts)
    .values(row)
    .onConflictDoUpdate({
      target: paymentCheckouts.reservationId,
      set: {
        attempt: row.attempt ?? 1,
        status: row.status,
        sessionId: null,
        checkoutUrl: null,
        terms: row.terms,
        customer: row.customer,
        successUrl: row.successUrl,
        cancelUrl: row.cancelUrl,
        expiresAt: row.expiresAt,
        updatedAt: row.updatedAt,
      },
      setWhere: and(
        eq(paymentCheckouts.attempt, readAttempt ?? -1),
        eq(paymentCheckouts.status, "creating"),
      ),
    })
    .returning({ attempt: paymentCheckouts.attempt });

/** The customer's latest fields on an open checkout (a second "pay" from the widget). */
export const updateCheckoutCustomer = (
  scope: Scope,
  reservationId: string,
  set: Pick<CheckoutRecord, "customer" | "successUrl" | "cancelUrl" | "updatedAt">,
) =>
  scope.db
    .update(paymentCheckouts)
    .set(set)
    .where(whereIn(scope, paymentCheckouts, eq(paymentCheckouts.reservationId, reservationId)));

/** The provider's session for the checkout's attempt: it is open. */
export const checkoutOpened = (
  scope: Scope,
  reservationId: string,
  attempt: number,
  set: Pick<CheckoutRecord, "sessionId" | "checkoutUrl" | "expiresAt" | "providerCustomer">,
) =>
  scope.db
    .update(paymentCheckouts)
    .set({ ...set, status: "open", updatedAt: Date.now() })
    .where(
      whereIn(
        scope,
        paymentCheckouts,
        eq(paymentCheckouts.reservationId, reservationId),
        eq(paymentCheckouts.attempt, attempt),
      ),
    );

/** Ends an open checkout (paid, or expired): only once, whoever ends it first. */
export const closeCheckout = (
  db: Database,
  sessionId: string,
  set: { status: "complete" | "expired"; bookingId?: string | null; failure?: string | null },
) =>
  db
    .update(paymentCheckouts)
    .set({ ...set, updatedAt: Date.now() })
    .where(
      and(
        eq(paymentCheckouts.sessionId, sessionId),
        or(eq(paymentCheckouts.status, "open"), eq(paymentCheckouts.status, "creating")),
      ),
    )
    .returning({ reservationId: paymentCheckouts.reservationId });

/** Open sessions past their expiry that no provider event closed (the reconcile loop asks the provider). */
export const overdueCheckouts = (db: Database, now: number, limit: number, workspaceId?: string) =>
  db
    .select()
    .from(paymentCheckouts)
    .where(
      and(
        eq(paymentCheckouts.status, "open"),
        lt(paymentCheckouts.expiresAt, now),
        workspaceId === undefined ? undefined : eq(paymentCheckouts.workspaceId, workspaceId),
      ),
    )
    .orderBy(asc(paymentCheckouts.expiresAt))
    .limit(limit);

/** Batch condition: this attempt is still the checkout's, waiting for its session. */
export const checkoutAttemptOpen = (reservationId: string, attempt: number) =>
  sql`exists (select 1 from ${paymentCheckouts} where ${paymentCheckouts.reservationId} = ${reservationId} and ${paymentCheckouts.attempt} = ${attempt} and ${paymentCheckouts.status} = 'creating')`;

/** Batch condition: the checkout of this session is still open (no other delivery booked it). */
export const checkoutStillOpen = (sessionId: string) =>
  sql`exists (select 1 from ${paymentCheckouts} where ${paymentCheckouts.sessionId} = ${sessionId} and ${paymentCheckouts.status} = 'open')`;

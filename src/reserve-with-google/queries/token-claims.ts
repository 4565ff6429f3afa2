import { and, eq, lt, sql } from "drizzle-orm";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { rwgBookings, rwgTokenClaims } from "../../db/schema";

/**
 * How long a claim holds its token. Longer than any booking takes (its batch deletes the
 * claim); short enough that a crashed attempt blocks Google's retries only briefly.
 */
export const CLAIM_MS = 30_000;

/**
 * Claims a token for one CreateBooking, in the batch of its first read (a transaction): new,
 * or taking over a claim that lapsed; never one held, nor a token already answered. Returns a
 * row exactly when the claim is ours now.
 */
export const tokenClaim = (scope: Scope, token: string, now: number) =>
  scope.db
    .insert(rwgTokenClaims)
    .select(
      sql`select ${scope.workspaceId}, ${token}, ${now + CLAIM_MS}
        where not exists (select 1 from ${rwgBookings}
          where ${rwgBookings.workspaceId} = ${scope.workspaceId}
            and ${rwgBookings.idempotencyToken} = ${token})`,
    )
    .onConflictDoUpdate({
      target: [rwgTokenClaims.workspaceId, rwgTokenClaims.idempotencyToken],
      set: { claimedUntil: sql`excluded.claimed_until` },
      setWhere: lt(rwgTokenClaims.claimedUntil, now),
    })
    .returning({ claimedUntil: rwgTokenClaims.claimedUntil });

/** Deletes the claim, whoever holds it, in the booking's own batch: the token is answered now. */
export const tokenClaimDone = (scope: Scope, token: string): Statement =>
  scope.db
    .delete(rwgTokenClaims)
    .where(
      and(
        eq(rwgTokenClaims.workspaceId, scope.workspaceId),
        eq(rwgTokenClaims.idempotencyToken, token),
      ),
    );

/** Gives up our claim after a failure: only ours (`until`), never a later request's. */
export const tokenClaimRelease = (scope: Scope, token: string, until: number) =>
  scope.db
    .delete(rwgTokenClaims)
    .where(
      and(
        eq(rwgTokenClaims.workspaceId, scope.workspaceId),
        eq(rwgTokenClaims.idempotencyToken, token),
        eq(rwgTokenClaims.claimedUntil, until),
      ),
    );

import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** A key as one API key of the workspace sent it (keys are kept per API key). */
export interface IdempotencyKeyId {
  apiKeyId: string;
  key: string;
}

/** A request's own reservation of a key: the status and lease it wrote tell it from a later one's. */
export interface OwnReservation extends IdempotencyKeyId {
  status: number;
  expiresAt: number;
}

const keyWhere = (scope: Scope, id: IdempotencyKeyId) =>
  whereIn(
    scope,
    idempotencyKeys,
    eq(idempotencyKeys.apiKeyId, id.apiKeyId),
    eq(idempotencyKeys.key, id.key),
  );

// After its lease ran out another request may own the key: only the reservation itself matches.
const ownWhere = (scope: Scope, own: OwnReservation) =>
  and(
    keyWhere(scope, own),
    eq(idempotencyKeys.status, own.status),
    eq(idempotencyKeys.expiresAt, own.expiresAt),
  );

/**
 * Reserves a key for a request about to run: inserted, or taken over when
 * the stored one expired (or its lease ran out) at `now`. Null when another
 * request holds the key: one statement decides, so two retries never both run.
 */
export async function reserveIdempotencyKey(
  scope: Scope,
  reservation: Omit<IdempotencyKeyRow, "workspaceId">,
  now: number,
): Promise<IdempotencyKeyRow | null> {
  const row = { workspaceId: scope.workspaceId, ...reservation };
  const [reserved] = await scope.db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoUpdate({
      target: [idempotencyKeys.workspaceId, idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: row,
      // Only an expired key (or a reservation whose lease ran out) may be taken over.
      setWhere: lt(idempotencyKeys.expiresAt, now),
    })
    .returning();
  return reserved ?? null;
}

/** The stored key (with the response it keeps, or its pending reservation); null when gone. */
export async function findIdempotencyKey(
  scope: Scope,
  id: IdempotencyKeyId,
): Promise<IdempotencyKeyRow | null> {
  const [row] = await scope.db.select().from(idempotencyKeys).where(keyWhere(scope, id));
  return row ?? null;
}

/** Drops a request's own reservation (a server error is not remembered). */
export async function dropIdempotencyKey(scope: Scope, own: OwnReservation): Promise<void> {
  await scope.db.delete(idempotencyKeys).where(ownWhere(scope, own));
}

/** Keeps the response of a request's own reservation, for replays until `expiresAt`. */
export async function keepIdempotentResponse(
  scope: Scope,
  own: OwnReservation,
  kept: { status: number; response: string; expiresAt: number },
): Promise<void> {
  await scope.db.update(idempotencyKeys).set(kept).where(ownWhere(scope, own));
}

import { and, eq, notExists, sql } from "drizzle-orm";
import { promocodes, workspaces } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

export type NewPromocode = Omit<typeof promocodes.$inferInsert, "workspaceId">;

/** Codes are compared without regard to case (ASCII, which is all a code may contain). */
export const promocodeMatches = (code: string) =>
  sql`lower(${promocodes.code}) = ${code.toLowerCase()}`;

/**
 * Inserts the code unless the workspace already has it in any case, in one
 * statement: D1 runs statements one at a time, so two racing requests cannot
 * both pass the check. The unique index only knows exact spellings. Returns
 * no row when the workspace does not exist or the code is taken; the caller's
 * batch tells the two apart.
 */
export function insertPromocodeIfFree(scope: Scope, row: NewPromocode) {
  const { db, workspaceId } = scope;
  const taken = db
    .select({ id: promocodes.id })
    .from(promocodes)
    .where(whereIn(scope, promocodes, promocodeMatches(row.code)));
  // Column order must follow the table definition for INSERT … SELECT.
  const values = db
    .select({
      id: sql<string>`${row.id}`.as("id"),
      workspaceId: workspaces.id,
      code: sql<string>`${row.code}`.as("code"),
      discountPercent: sql<number | null>`${row.discountPercent ?? null}`.as("discount_percent"),
      discountAmount: sql<number | null>`${row.discountAmount ?? null}`.as("discount_amount"),
      maxUses: sql<number | null>`${row.maxUses ?? null}`.as("max_uses"),
      createdAt: sql<number>`${row.createdAt}`.as("created_at"),
    })
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), notExists(taken)));
  return db.insert(promocodes).select(values).returning();
}

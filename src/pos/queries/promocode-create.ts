import { isUniqueViolation } from "../../db/constraints";
import type { Scope } from "../../db/scope";
import { insertPromocodeIfFree, type NewPromocode } from "./promocodes";
import { assertWorkspaceFound, selectWorkspaceId } from "../../db/queries/workspace-exists";

/**
 * Creates a promocode in one batch (workspace read + conditional insert).
 * Throws 404 Workspace for an unknown workspace; returns null when the
 * workspace already has the code (in any case).
 */
export async function createPromocode(scope: Scope, row: NewPromocode) {
  const { db, workspaceId } = scope;
  const result = await db
    .batch([selectWorkspaceId(db, workspaceId), insertPromocodeIfFree(scope, row)])
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "promocodes", "code")) return null;
      throw error;
    });
  if (!result) return null;
  const [found, inserted] = result;
  assertWorkspaceFound(found);
  return inserted[0] ?? null;
}

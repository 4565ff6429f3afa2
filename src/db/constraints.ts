import { OVER_BATCH_LIMIT, OVER_PARAMETER_LIMIT } from "./limits";

/**
 * D1 reports constraint failures only as text ("UNIQUE constraint failed:
 * customers.workspace_id, customers.phone"), and drizzle may wrap it in its own
 * error with the original as `cause`, so the whole cause chain is searched.
 */
function chainIncludes(error: unknown, ...needles: string[]): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const { message } = current;
    if (needles.every((n) => message.includes(n))) return true;
    current = current.cause;
  }
  return false;
}

export const isUniqueViolation = (error: unknown, table: string, column: string): boolean =>
  chainIncludes(error, "UNIQUE constraint failed", `${table}.${column}`);

/**
 * A shard's placement check refused the call (`WorkspaceNotHereError`, or the
 * fence's CHECK inside a batch): nothing of it was written there.
 */
export const isWorkspaceNotHere = (error: unknown): boolean =>
  chainIncludes(error, "workspace_not_here");

/** The CHECK of `batch_guards` fired: a guard's condition was false when its batch ran. */
export const isGuardFailure = (error: unknown): boolean =>
  chainIncludes(error, "batch_guard_failed");

/**
 * The batch certainly did not commit: SQLite raised an error inside the
 * transaction (a constraint, a guard, a trigger, bad SQL), or the statement
 * was refused before it was sent. Anything else (a lost connection, a reset,
 * a timeout) may have happened after the commit, and is treated as unknown.
 */
export const isDefiniteFailure = (error: unknown): boolean =>
  chainIncludes(error, "SQLITE_") ||
  isWorkspaceNotHere(error) ||
  isGuardFailure(error) ||
  chainIncludes(error, "too many SQL variables") ||
  chainIncludes(error, OVER_PARAMETER_LIMIT) ||
  chainIncludes(error, OVER_BATCH_LIMIT);

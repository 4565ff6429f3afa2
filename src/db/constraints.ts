/**
 * D1 reports a unique-index violation only as text ("UNIQUE constraint failed:
 * customers.workspace_id, customers.phone"), and drizzle may wrap it in its own
 * error with the original as `cause`, so the whole cause chain is searched.
 */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  const needle = `${table}.${column}`;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const { message } = current;
    if (message.includes("UNIQUE constraint failed") && message.includes(needle)) return true;
    current = current.cause;
  }
  return false;
}

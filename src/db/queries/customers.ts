import { eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { customers } from "../schema";
import { type Scope, whereIn } from "../scope";
import { listInWorkspace } from "./list";

export async function findCustomer(scope: Scope, id: string) {
  const [row] = await scope.db
    .select()
    .from(customers)
    .where(whereIn(scope, customers, eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

// A phone that cannot be a number of any country matches nobody: an empty list, like any other miss.
const NO_MATCH = sql`0`;

export interface CustomerFilter {
  /** E.164; null for a phone that cannot match anybody. */
  phone?: string | null;
  /** Matched case-insensitively. */
  email?: string;
}

export function listCustomers(scope: Scope, page: PageRequest, filter: CustomerFilter) {
  const conditions: SQL[] = [];
  if (filter.phone !== undefined)
    conditions.push(filter.phone ? eq(customers.phone, filter.phone) : NO_MATCH);
  if (filter.email !== undefined)
    conditions.push(eq(customers.emailLower, filter.email.trim().toLowerCase()));
  return listInWorkspace(scope, customers, page, ...conditions);
}

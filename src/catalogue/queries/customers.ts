import { eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import type { Database } from "../../db/client";
import { customers } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";

/** The workspace's customer with this phone (E.164), null when there is none. */
export async function findCustomerByPhone(scope: Scope, phone: string) {
  const [row] = await scope.db
    .select()
    .from(customers)
    .where(whereIn(scope, customers, eq(customers.phone, phone)))
    .limit(1);
  return row ?? null;
}

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

/**
 * The customer of a new booking, found by phone or added. Only staff's
 * bookings refresh a found customer's names and e-mail (`refreshes`): anyone
 * can type any phone into the widget.
 */
export function saveBookingCustomer(
  scope: Scope,
  row: typeof customers.$inferInsert,
  refreshes: boolean,
) {
  const insert = scope.db.insert(customers).values(row);
  const target = [customers.workspaceId, customers.phone];
  if (!refreshes) return insert.onConflictDoNothing({ target });
  return insert.onConflictDoUpdate({
    target,
    set: {
      firstName: row.firstName,
      lastName: sql`coalesce(${row.lastName ?? null}, ${customers.lastName})`,
      middleName: sql`coalesce(${row.middleName ?? null}, ${customers.middleName})`,
      email: sql`coalesce(${row.email ?? null}, ${customers.email})`,
      emailLower: sql`coalesce(${row.emailLower ?? null}, ${customers.emailLower})`,
    },
  });
}

/** A customer's consent per message channel; the customer as it now is, null when unknown. */
export async function setCustomerNotifications(
  scope: Scope,
  id: string,
  to: { notifyEmail?: boolean | undefined; notifySms?: boolean | undefined },
) {
  const set = {
    ...(to.notifyEmail === undefined ? {} : { notifyEmail: to.notifyEmail }),
    ...(to.notifySms === undefined ? {} : { notifySms: to.notifySms }),
  };
  if (Object.keys(set).length === 0) return findCustomer(scope, id);
  const [row] = await scope.db
    .update(customers)
    .set(set)
    .where(whereIn(scope, customers, eq(customers.id, id)))
    .returning();
  return row ?? null;
}

export const insertCustomer = (db: Database, row: typeof customers.$inferInsert) =>
  db.insert(customers).values(row).returning();

import { type SQL, sql } from "drizzle-orm";
import { customers, services, staffers } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey } from "../../db/scope";
import { inSubquery } from "../../db/bounded";

/** Whose names a report's keys are. */
export type Named = "staffer" | "service" | "customer";

const fullName = (first: SQL, last: SQL) =>
  sql<string>`trim(${first} || ' ' || coalesce(${last}, ''))`;

/**
 * The names of the ids `keys` selects (a subquery over the rollup rows the
 * report reads), in the same batch: no second round trip for the labels.
 */
export function namesOf(scope: Scope, named: Named, keys: SQL) {
  const statement =
    named === "service"
      ? scope.db
          .select({ id: services.id, name: services.name })
          .from(services)
          .where(whereByKey(scope, services, inSubquery(services.id, keys)))
      : named === "staffer"
        ? scope.db
            .select({
              id: staffers.id,
              name: fullName(sql`${staffers.firstName}`, sql`${staffers.lastName}`),
            })
            .from(staffers)
            .where(whereByKey(scope, staffers, inSubquery(staffers.id, keys)))
        : scope.db
            .select({
              id: customers.id,
              name: fullName(sql`${customers.firstName}`, sql`${customers.lastName}`),
            })
            .from(customers)
            .where(whereByKey(scope, customers, inSubquery(customers.id, keys)));
  return read([statement] as const, ([rows]) => new Map(rows.map((r) => [r.id, r.name])));
}

import { and, between, eq, type SQL, sql } from "drizzle-orm";
import type { reportBookingDays, reportRevenueDays } from "../../db/schema";
import type { Scope } from "../../db/scope";
import type { DayRange } from "./report-range";

/** A rollup table kept per dimension, day and key. */
type DimTable = typeof reportRevenueDays | typeof reportBookingDays;

/** The rows of one dimension in the range, in the primary key's order (location, dim, day). */
export const dimInRange = (t: DimTable, scope: Scope, dim: string, range: DayRange): SQL =>
  and(
    eq(t.locationId, range.locationId),
    sql`${t.dim} = ${dim}`,
    between(t.day, range.from, range.to),
    sql`+${t.workspaceId} = ${scope.workspaceId}`,
  ) as SQL;

/** The keys of a dimension in the range, as a subquery (the labels' batch statement). */
export const dimKeys = (t: DimTable, scope: Scope, dim: string, range: DayRange): SQL =>
  sql`(select distinct ${t.key} from ${t} where ${dimInRange(t, scope, dim, range)})`;

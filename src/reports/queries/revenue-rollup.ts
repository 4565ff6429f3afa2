import { sql } from "drizzle-orm";
import { reportRevenueDays } from "../../db/schema";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { RevenueEntry } from "../rules/revenue-entries";
import { REVENUE_PROPERTY, REVENUE_SUMS } from "../rules/revenue-sums";
import { localDaySql } from "./local-day";

const t = reportRevenueDays;

/**
 * Adds entries to a location's revenue rollup of the day `at` falls in (its
 * wall clock), as one statement of the batch that moves the money: the sale or
 * refund and its rollup commit together or not at all. Nothing to add, no statement.
 */
export function revenueRollup(
  scope: Scope,
  at: { locationId: string; at: number },
  entries: readonly RevenueEntry[],
): Statement[] {
  if (entries.length === 0) return [];
  const rows = entries.map((e) => [e.dim, e.key, ...REVENUE_SUMS.map((s) => e.sums[s] ?? 0)]);
  // Columns in the table's order: location, dim, day, key, workspace, the sums, changes.
  const sums = REVENUE_SUMS.map((_, i) => sql.raw(`json_extract(j.value, '$[${i + 2}]')`));
  const set = Object.fromEntries(
    REVENUE_SUMS.map((s) => [REVENUE_PROPERTY[s], sql.raw(`${s} + excluded.${s}`)]),
  );
  return [
    scope.db
      .insert(t)
      .select(
        sql`select ${at.locationId}, json_extract(j.value, '$[0]'), ${localDaySql(at.locationId, at.at)},
          json_extract(j.value, '$[1]'), ${scope.workspaceId}, ${sql.join(sums, sql`, `)}, 1
          from json_each(${JSON.stringify(rows)}) j where true`,
      )
      .onConflictDoUpdate({
        target: [t.locationId, t.dim, t.day, t.key],
        set: { ...set, changes: sql`${t.changes} + 1` },
      }),
  ];
}

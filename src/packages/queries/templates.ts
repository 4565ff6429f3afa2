import { and, asc, count, eq } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import { packages, services } from "../../db/schema";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import type { PageRequest } from "../../platform/pagination";

export type TemplateRow = typeof packages.$inferSelect;

/** Which of these ids are services of the workspace (a template's credits may name only those). */
export async function knownServiceIds(scope: Scope, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await scope.db
    .select({ id: services.id })
    .from(services)
    .where(whereByKey(scope, services, idIn(services.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export const insertTemplate = (scope: Scope, row: TemplateRow) =>
  scope.db.insert(packages).values({ ...row, workspaceId: scope.workspaceId });

/** One template of the workspace (null: unknown, or another workspace's). */
export async function findTemplate(scope: Scope, id: string): Promise<TemplateRow | null> {
  const rows = await scope.db
    .select()
    .from(packages)
    .where(whereByKey(scope, packages, eq(packages.id, id)));
  return rows[0] ?? null;
}

/** A page of the workspace's templates, oldest first, optionally only the live (or not live) ones. */
export async function listTemplates(
  scope: Scope,
  page: PageRequest,
  filter: { live?: boolean | undefined },
) {
  const where = whereIn(
    scope,
    packages,
    filter.live === undefined ? undefined : eq(packages.live, filter.live),
  );
  const [totals, rows] = await scope.db.batch([
    scope.db.select({ total: count() }).from(packages).where(where),
    scope.db
      .select()
      .from(packages)
      .where(where)
      .orderBy(asc(packages.createdAt), asc(packages.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export type TemplateColumns = Partial<
  Pick<TemplateRow, "name" | "price" | "live" | "validDays" | "credits" | "renews">
>;

/**
 * Writes a change at the version read (compare-and-set): null when the row
 * changed (or vanished) meanwhile, else the row as written.
 */
export async function updateTemplateAt(
  scope: Scope,
  read: Pick<TemplateRow, "id" | "version">,
  columns: TemplateColumns,
  at: number,
): Promise<TemplateRow | null> {
  const rows = await scope.db
    .update(packages)
    .set({ ...columns, updatedAt: at, version: read.version + 1 })
    .where(
      whereByKey(
        scope,
        packages,
        and(eq(packages.id, read.id), eq(packages.version, read.version)),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

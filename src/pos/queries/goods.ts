import { asc, count, eq, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { categories, goodStocks, goods, locations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

const stock = sql<number>`(select coalesce(sum(${goodStocks.quantity}), 0) from ${goodStocks} where ${goodStocks.goodId} = ${goods.id})`;

/** A page of the workspace's goods with their category and stock over all locations. */
export async function listGoods(scope: Scope, page: PageRequest) {
  const where = whereIn(scope, goods);
  // The category join shares column names with goods, which D1 batches cannot map: two parallel queries.
  const [totals, rows] = await Promise.all([
    scope.db.select({ total: count() }).from(goods).where(where),
    scope.db
      .select({ good: goods, category: categories, stock })
      .from(goods)
      .leftJoin(categories, eq(categories.id, goods.categoryId))
      .where(where)
      .orderBy(asc(goods.createdAt), asc(goods.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export type GoodRow = typeof goods.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;

/**
 * What creating a good checks, in one round trip: the category asked for,
 * the location of its initial stock, and any good of the workspace with the
 * same article (each empty when none is asked or found).
 */
export async function readGoodRefs(
  scope: Scope,
  asked: { categoryId: string; locationId: string; article: string },
) {
  const { db } = scope;
  const [category, location, sameArticle] = await db.batch([
    db
      .select()
      .from(categories)
      .where(whereIn(scope, categories, eq(categories.id, asked.categoryId))),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, asked.locationId))),
    db
      .select({ id: goods.id })
      .from(goods)
      .where(whereIn(scope, goods, eq(goods.article, asked.article))),
  ]);
  return {
    category: category[0] ?? null,
    locationFound: location.length > 0,
    articleTaken: sameArticle.length > 0,
  };
}

/** Inserts a new good of the workspace (the unique index on its article decides a race). */
export const insertGood = (scope: Scope, good: GoodRow): Statement =>
  scope.db.insert(goods).values({ ...good, workspaceId: scope.workspaceId });

/** Records a good's stock at one location. */
export const insertGoodStock = (
  scope: Scope,
  stock: Omit<typeof goodStocks.$inferInsert, "workspaceId">,
): Statement => scope.db.insert(goodStocks).values({ workspaceId: scope.workspaceId, ...stock });

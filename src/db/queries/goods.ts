import { asc, count, eq, sql } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { categories, goodStocks, goods } from "../schema";
import { type Scope, whereIn } from "../scope";

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

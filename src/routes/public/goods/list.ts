import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { asc, count, eq, sql } from "drizzle-orm";
import { categories, goodStocks, goods } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { PaginationQuery, pageRequest, paginate } from "../../../lib/pagination";
import { errorResponses, json } from "../../../lib/responses";
import { GoodList, renderGood } from "./schema";

export const route = createRoute({
  method: "get",
  path: "/goods",
  tags: ["Goods"],
  summary: "List goods with their stock over all locations",
  request: { query: PaginationQuery },
  responses: { 200: json(GoodList, "A page of goods"), ...errorResponses },
});

const stock = sql<number>`(select coalesce(sum(${goodStocks.quantity}), 0) from ${goodStocks} where ${goodStocks.goodId} = ${goods.id})`;

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const scope = c.var.scope;
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
  return c.json(paginate(c.req.url, rows.map(renderGood), totals[0]?.total ?? 0, page), 200);
};

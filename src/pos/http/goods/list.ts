import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listGoods } from "../../queries/goods";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { GoodList, renderGood } from "./schema";

export const route = defineRoute({
  operationId: "listGoods",
  keys: "secret",
  method: "get",
  path: "/goods",
  tags: ["Goods"],
  summary: "List goods with their stock over all locations",
  request: { query: PaginationQuery },
  responses: {
    200: json(GoodList, "A page of goods"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const { rows, total } = await listGoods(c.var.deps.scope, page);
  return c.json(paginate(c.req.url, rows.map(renderGood), total, page), 200);
};

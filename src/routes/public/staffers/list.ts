import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { listStaffers } from "../../../db/queries/staffers";
import type { PublicEnv } from "../../../env";
import { PaginationQuery, pageRequest, paginate } from "../../../lib/pagination";
import { authErrors, json, queryErrors } from "../../../lib/responses";
import { renderStaffer, StafferList } from "../../../views/staffer";

export const route = createRoute({
  method: "get",
  path: "/staffers",
  tags: ["Staffers"],
  summary: "List the workspace's staff",
  request: { query: PaginationQuery },
  responses: {
    200: json(StafferList, "A page of staffers"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const { rows, total } = await listStaffers(c.var.scope, page);
  const data = rows.map((r) => renderStaffer(r.staffer, r.locationIds));
  return c.json(paginate(c.req.url, data, total, page), 200);
};

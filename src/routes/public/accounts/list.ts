import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import { listPage } from "../../../db/queries/list";
import { accounts } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { uuid } from "../../../lib/fields";
import { PaginationQuery, pageRequest, paginate } from "../../../lib/pagination";
import { errorResponses, json } from "../../../lib/responses";
import { AccountList, renderAccount } from "../../../views/account";

const ListQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid")
    .optional()
    .openapi({ description: "Only the accounts of this location" }),
});

export const route = createRoute({
  method: "get",
  path: "/accounts",
  tags: ["Accounts"],
  summary: "List the workspace's payment accounts",
  request: { query: ListQuery },
  responses: { 200: json(AccountList, "A page of accounts"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const scope = c.var.scope;
  // An unknown location is a filter that matches nothing: an empty page, no extra lookup.
  const filter = query.location_uuid ? eq(accounts.locationId, query.location_uuid) : undefined;
  const { rows, total } = await listPage(
    scope.db,
    accounts,
    whereIn(scope, accounts, filter),
    [asc(accounts.createdAt), asc(accounts.id)],
    page,
  );
  return c.json(paginate(c.req.url, rows.map(renderAccount), total, page), 200);
};

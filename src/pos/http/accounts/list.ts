import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listAccounts } from "../../queries/accounts";
import type { PublicEnv } from "../../../http/env";
import { uuid } from "../../../platform/fields";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { AccountList, renderAccount } from "../../views/account";

const ListQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid")
    .optional()
    .openapi({ description: "Only the accounts of this location" }),
});

export const route = defineRoute({
  operationId: "listAccounts",
  keys: "secret",
  method: "get",
  path: "/accounts",
  tags: ["Accounts"],
  summary: "List the workspace's payment accounts",
  request: { query: ListQuery },
  responses: {
    200: json(AccountList, "A page of accounts"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  // An unknown location is a filter that matches nothing: an empty page, no extra lookup.
  const { rows, total } = await listAccounts(c.var.deps.scope, page, {
    locationId: query.location_uuid,
  });
  return c.json(paginate(c.req.url, rows.map(renderAccount), total, page), 200);
};

import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { uuid } from "../../../platform/fields";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { listCustomerPackages } from "../../queries/customer-package-list";
import { CustomerPackageList, renderRecord } from "./schema";

const ListQuery = PaginationQuery.extend({
  customer_uuid: uuid("customer_uuid").openapi({ description: "Whose packages (required)" }),
});

export const route = defineRoute({
  operationId: "listCustomerPackages",
  keys: "secret",
  method: "get",
  path: "/customer-packages",
  tags: ["Customer packages"],
  summary: "List a customer's packages and memberships, oldest first",
  description: "An unknown customer (or another workspace's) has none: an empty page.",
  request: { query: ListQuery },
  responses: {
    200: json(CustomerPackageList, "A page of the customer's packages"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const page = pageRequest(q);
  const { records, total } = await listCustomerPackages(c.var.deps.scope, q.customer_uuid, page);
  const now = Date.now();
  return c.json(
    paginate(
      c.req.url,
      records.map((r) => renderRecord(r, now)),
      total,
      page,
    ),
    200,
  );
};

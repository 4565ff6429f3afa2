import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listCustomers } from "../../queries/customers";
import { normalisePhone } from "../../../platform/rules/phone";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { CustomerSchema, renderCustomer } from "../../views/customer";

const ListQuery = PaginationQuery.extend({
  phone: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: "Exact match after normalising to E.164 with the workspace country" }),
  email: z.string().max(320).optional().openapi({ description: "Exact, case-insensitive match" }),
});

export const route = defineRoute({
  operationId: "listCustomers",
  keys: "secret",
  method: "get",
  path: "/customers",
  tags: ["Customers"],
  summary: "List customers, or find one by phone or e-mail",
  request: { query: ListQuery },
  responses: {
    200: json(paginated(CustomerSchema, "CustomerList"), "A page of customers"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listCustomers(c.var.deps.scope, page, {
    phone:
      query.phone === undefined ? undefined : normalisePhone(query.phone, c.var.workspace.country),
    email: query.email,
  });
  return c.json(paginate(c.req.url, rows.map(renderCustomer), total, page), 200);
};

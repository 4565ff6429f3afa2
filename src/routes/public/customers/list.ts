import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import { listPage } from "../../../db/queries/list";
import { customers } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import { normalisePhone } from "../../../domain/phone";
import type { AppEnv } from "../../../env";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../lib/pagination";
import { errorResponses, json } from "../../../lib/responses";
import { CustomerSchema, renderCustomer } from "../../../views/customer";

const ListQuery = PaginationQuery.extend({
  phone: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: "Exact match after normalising to E.164 with the workspace country" }),
  email: z.string().max(320).optional().openapi({ description: "Exact, case-insensitive match" }),
});

export const route = createRoute({
  method: "get",
  path: "/customers",
  tags: ["Customers"],
  summary: "List customers, or find one by phone or e-mail",
  request: { query: ListQuery },
  responses: {
    200: json(paginated(CustomerSchema, "CustomerList"), "A page of customers"),
    ...errorResponses,
  },
});

// A phone that cannot be a number of any country matches nobody: an empty list, like any other miss.
const NO_MATCH = sql`0`;

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const scope = c.var.scope;
  const filters: SQL[] = [];
  if (query.phone !== undefined) {
    const phone = normalisePhone(query.phone, c.var.workspace.country);
    filters.push(phone ? eq(customers.phone, phone) : NO_MATCH);
  }
  if (query.email !== undefined)
    filters.push(eq(customers.emailLower, query.email.trim().toLowerCase()));
  const { rows, total } = await listPage(
    scope.db,
    customers,
    whereIn(scope, customers, ...filters),
    [asc(customers.createdAt), asc(customers.id)],
    page,
  );
  return c.json(paginate(c.req.url, rows.map(renderCustomer), total, page), 200);
};

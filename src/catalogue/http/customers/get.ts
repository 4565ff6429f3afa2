import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findCustomer } from "../../queries/customers";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { uuid } from "../../../platform/fields";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { CustomerSchema, renderCustomer } from "../../views/customer";

export const route = defineRoute({
  operationId: "getCustomer",
  keys: "secret",
  method: "get",
  path: "/customers/{customer_uuid}",
  tags: ["Customers"],
  summary: "Get a customer",
  request: { params: z.object({ customer_uuid: uuid("customer_uuid") }) },
  responses: {
    200: json(CustomerSchema, "The customer"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("customer"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { customer_uuid: id } = c.req.valid("param");
  const row = await findCustomer(c.var.deps.scope, id);
  if (!row) throw notFound("Customer");
  return c.json(renderCustomer(row), 200);
};

import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listPosOrders } from "../../queries/pos-orders";
import type { PublicEnv } from "../../../http/env";
import { instantMs, uuid } from "../../../platform/fields";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderOrder } from "../../views/pos-order";
import { PosOrderSchema } from "../../views/pos-order-schema";

const ListQuery = PaginationQuery.extend({
  status: z.enum(["open", "paid", "cancelled", "refunded"]).optional(),
  location_uuid: uuid("location_uuid").optional(),
  staffer_uuid: uuid("staffer_uuid").optional().openapi({ description: "The seller" }),
  customer_uuid: uuid("customer_uuid").optional(),
  created_at_from: instantMs.optional(),
  created_at_to: instantMs.optional(),
});

export const route = defineRoute({
  operationId: "listOrders",
  keys: "secret",
  method: "get",
  path: "/orders",
  tags: ["POS orders"],
  summary: "List POS orders (booking orders excluded), newest first",
  request: { query: ListQuery },
  responses: {
    200: json(paginated(PosOrderSchema, "PosOrderList"), "A page of orders"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const page = pageRequest(q);
  const { records, total } = await listPosOrders(
    c.var.deps.scope,
    {
      status: q.status,
      locationId: q.location_uuid,
      sellerId: q.staffer_uuid,
      customerId: q.customer_uuid,
      createdFrom: q.created_at_from,
      createdTo: q.created_at_to,
    },
    page,
  );
  return c.json(paginate(c.req.url, records.map(renderOrder), total, page), 200);
};

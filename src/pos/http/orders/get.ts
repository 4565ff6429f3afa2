import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { loadPosOrder } from "../../queries/pos-orders";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderOrder } from "../../views/pos-order";
import { PosOrderSchema } from "../../views/pos-order-schema";
import { OrderPath } from "./schema";

export const route = defineRoute({
  operationId: "getOrder",
  keys: "secret",
  method: "get",
  path: "/orders/{order_uuid}",
  tags: ["POS orders"],
  summary: "Get a POS order",
  request: { params: OrderPath },
  responses: {
    200: json(PosOrderSchema, "The order"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("order"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { order_uuid: id } = c.req.valid("param");
  const view = await loadPosOrder(c.var.deps.scope, id);
  if (!view) throw notFound("Order");
  return c.json(renderOrder(view), 200);
};

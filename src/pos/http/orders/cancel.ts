import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  conflictErrors,
  json,
  notFoundError,
  queryErrors,
} from "../../../http/responses";
import { cancelPosOrder } from "../../orders/cancel";
import { PosOrderSchema } from "../../views/pos-order-schema";
import { OrderPath } from "./schema";

export const route = defineRoute({
  operationId: "createOrderCancel",
  keys: "secret",
  method: "post",
  path: "/orders/{order_uuid}/cancel",
  tags: ["POS orders"],
  summary: "Cancel an open POS order",
  description:
    "open → cancelled. Nothing was paid, so nothing moves but the promocode use, which is freed. An order that is not open is 409 order_not_open (a pay and a cancel at the same moment: one of them wins). Records `order-cancelled`.",
  request: { params: OrderPath },
  responses: {
    200: json(PosOrderSchema, "The cancelled order"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("order"),
    ...conflictErrors("The order is not open (`order_not_open`)", ["order_not_open"]),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { order_uuid: id } = c.req.valid("param");
  return c.json(await cancelPosOrder(c.var.deps.scope, id), 200);
};

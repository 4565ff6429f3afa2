import { z, type RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, conflictErrors, json, jsonBody, notFoundError } from "../../../http/responses";
import { uuid } from "../../../platform/fields";
import { startOrderCheckout } from "../../order-checkout/start";
import { CheckoutSchema, paymentsUnavailable, returnPages } from "./schema";

export const OrderCheckoutBody = z
  .object(returnPages("the order stays open then."))
  .openapi("CreateOrderCheckout");

export const route = defineRoute({
  operationId: "createOrderCheckout",
  keys: "secret",
  method: "post",
  path: "/orders/{order_uuid}/checkout",
  tags: ["Payments"],
  summary: "Pay an open POS order on the payment provider's hosted page",
  description:
    "For an open POS order with a customer and something left to pay: the answer is the provider's hosted page for the order's amount due (fixed now; nothing in the request sets it), open 31 minutes. A membership line makes the page save the card, which later periods are charged to. The order is paid (on its location's online account, `payment_method` `online_account`, its vouchers and packages issued) when the provider confirms the payment; if it was paid, cancelled or changed meanwhile, the money is refunded in full. Calling again while the page is open answers the same page. An order that is not open is 409 `order_not_open`, one without a customer 409 `customer_required`, one that owes nothing 409 `nothing_due`.",
  request: {
    params: z.object({ order_uuid: uuid("order_uuid") }),
    ...jsonBody(OrderCheckoutBody),
  },
  responses: {
    201: json(CheckoutSchema, "The hosted payment page"),
    ...authErrors,
    ...notFoundError("order"),
    ...conflictErrors(
      "The order is not open (`order_not_open`), has no customer (`customer_required`) or owes nothing (`nothing_due`); another checkout of it is being started (`conflict`)",
      ["order_not_open", "customer_required", "nothing_due", "conflict"],
    ),
    ...paymentsUnavailable,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { order_uuid: orderId } = c.req.valid("param");
  const { success_url: successUrl, cancel_url: cancelUrl } = c.req.valid("json");
  const answer = await startOrderCheckout(c.var.deps, { orderId, successUrl, cancelUrl });
  return c.json(answer, 201);
};

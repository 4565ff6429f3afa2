import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { withFields } from "../../../http/request-fields";
import { refundPosOrder } from "../../orders/refund";
import { onlineRefunds } from "../../online-refunds";
import { REFUND_FIELDS } from "./fields";
import { PosOrderSchema } from "../../views/pos-order-schema";
import { OrderPath, RefundOrderBody } from "./schema";

export const route = defineRoute({
  operationId: "createOrderRefund",
  keys: "secret",
  method: "post",
  path: "/orders/{order_uuid}/refund",
  tags: ["POS orders"],
  summary: "Refund a paid POS order",
  description:
    "paid → refunded, is_reverted true, in one write: the account (account_uuid, default the one the order was paid on; cash or card of the order's branch) is debited what it received, each voucher that paid gets its part back, the goods return to stock, and the vouchers and customer packages the order sold are voided. What the order was paid online (`POST /orders/{uuid}/checkout`) goes back to the customer's card at the payment provider, in full (`online_refunded_amount`): the location's online account is debited in the same write, and the provider's refund follows it (once: a lost answer is repeated under the same Idempotency-Key). If one of those vouchers has been spent, even in part, the refund is 409 voucher_already_used; if one of those packages has a credit used or held by a booking, it is 409 package_already_used (checked inside the refund's write, so a booking taking a credit at the same moment and the refund cannot both succeed); either way nothing changes. An order that is not paid is 409 order_not_paid. A debit that would take the account's balance outside ±(2^53 − 1) is 422 on account_uuid. Records `order-refunded`.",
  request: { params: OrderPath, ...jsonBody(RefundOrderBody) },
  responses: {
    200: json(PosOrderSchema, "The refunded order"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("order"),
    ...conflictErrors(
      "The order is not paid (`order_not_paid`); a voucher it sold has been spent (`voucher_already_used`); a package it sold was used or is held by a booking (`package_already_used`); it changed during the refund (`order_changed`)",
      ["order_not_paid", "voucher_already_used", "package_already_used", "order_changed"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { order_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  const order = await withFields(REFUND_FIELDS, () =>
    refundPosOrder(c.var.deps.scope, id, {
      accountId: body.account_uuid ?? null,
      reason: body.reason ?? null,
    }),
  );
  // Committed: the card is refunded now; a lost answer is the payments reconcile's to repeat.
  if (order.online_refunded_amount > 0) await onlineRefunds().send(c.var.deps, id);
  return c.json(order, 200);
};

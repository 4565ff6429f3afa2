import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  errorCodes,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { withFields } from "../../../http/request-fields";
import { payPosOrder } from "../../orders/pay";
import { PAY_FIELDS } from "./fields";
import { PosOrderSchema } from "../../views/pos-order-schema";
import { OrderPath, PayOrderBody, voucherOffers } from "./schema";

export const route = defineRoute({
  operationId: "payOrder",
  keys: "secret",
  method: "post",
  path: "/orders/{order_uuid}/pay",
  tags: ["POS orders"],
  summary: "Pay an open POS order in full, with vouchers and/or an account",
  description:
    "The vouchers pay first, in the order listed, each up to its amount or its balance; account_uuid pays the rest and is required when anything is left (422). account_uuid must be a cash or card account of the order's branch; payment_method is derived from it (e.g. cash_account), or is `voucher` when vouchers paid everything. A QR or online account is 422 account_requires_action; an order with a booking-linked service is 422 order_has_booked_services; an order that is not open is 409 order_not_open; a void or spent voucher, or an amount above a voucher's balance, is 409 voucher_unavailable; a voucher spent by another payment at the same moment is 409 voucher_balance_changed. Unknown codes (or another workspace's) are 422. Goods leave the branch's stock (which may go below zero); voucher lines issue one voucher per unit (their `codes`), each worth what was paid for it: its line's price less the line's share of the order's discount and promocode (shared in proportion to line totals), split over the units. Package lines issue one customer package per unit to the order's customer (their `customer_package_uuids`), each sold at its unit's share computed the same way, with its first credits and a `package-issued` event; an order with a membership line (a template that renews) is 409 card_required: it is paid online (POST /orders/{order_uuid}/checkout) so that its card is saved for the renewals. A payment that would take the account's balance outside ±(2^53 − 1) is 422 on account_uuid.",
  request: { params: OrderPath, ...jsonBody(PayOrderBody) },
  responses: {
    200: json(PosOrderSchema, "The paid order"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("order"),
    ...conflictErrors(
      "The order is not open (`order_not_open`); a voucher cannot pay what was asked of it (`voucher_unavailable`) or was spent at the same moment (`voucher_balance_changed`); the order sells a membership, which is paid online (`card_required`)",
      ["order_not_open", "voucher_unavailable", "voucher_balance_changed", "card_required"],
    ),
    422: errorCodes(
      "A field is invalid, or account_uuid is unknown, of another branch or its balance would leave ±(2^53 − 1) (`validation_failed`); the account is a QR or online one (`account_requires_action`); the order has a booking-linked service (`order_has_booked_services`)",
      ["validation_failed", "account_requires_action", "order_has_booked_services"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { order_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  const order = await withFields(PAY_FIELDS, () =>
    payPosOrder(c.var.deps.scope, id, {
      accountId: body.account_uuid ?? null,
      vouchers: voucherOffers(body.vouchers),
    }),
  );
  return c.json(order, 200);
};

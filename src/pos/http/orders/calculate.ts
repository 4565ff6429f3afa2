import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { calculateInvoice } from "../../orders/calculate";
import { withFields } from "../../../http/request-fields";
import { CALCULATE_FIELDS, requestedLines } from "./fields";
import { renderInvoice } from "../../views/pos-order";
import { InvoiceSchema } from "../../views/pos-order-schema";
import { CalculateOrderBody, voucherOffers } from "./schema";

export const route = defineRoute({
  operationId: "calculateOrder",
  keys: "secret",
  method: "post",
  path: "/orders/calculate",
  tags: ["POS orders"],
  summary: "Preview an order's totals without creating it",
  description:
    "Priced by the same function as create and pay. Order of operations: line totals → discount → promocode → tax → total. A promocode's uses by the bookings in booking_uuids are not counted against its limit. With payment_vouchers, the invoice shows what those vouchers would cover (voucher_paid_amount, amount_due is what the account would pay), split exactly as pay splits it.",
  request: jsonBody(CalculateOrderBody),
  responses: {
    200: json(
      z.object({
        invoice: InvoiceSchema,
        voucher_payments: z
          .array(z.object({ code: z.string(), amount: z.number().int() }))
          .optional()
          .openapi({
            description: "Only with payment_vouchers: what each of them would cover",
          }),
      }),
      "The invoice",
    ),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(
      "A payment voucher is void, spent, or smaller than its amount (`voucher_unavailable`)",
      ["voucher_unavailable"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const { invoice, voucherParts } = await withFields(CALCULATE_FIELDS, () =>
    calculateInvoice(c.var.deps.scope, {
      locationId: body.location_uuid,
      lines: requestedLines(body),
      discountAmount: body.discount_amount ?? null,
      promocode: body.promocode ?? null,
      excludedBookingIds: body.booking_uuids ?? [],
      payWith: voucherOffers(body.payment_vouchers),
    }),
  );
  const rendered = renderInvoice(invoice, null);
  // The reference's response has the one key; the voucher parts appear only when asked for.
  if (body.payment_vouchers === undefined) return c.json({ invoice: rendered }, 200);
  return c.json({ invoice: rendered, voucher_payments: voucherParts }, 200);
};

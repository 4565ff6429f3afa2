import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../env";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../lib/responses";
import { calculateInvoice } from "../../../orders/calculate";
import { requestedLines } from "../../../orders/resolve";
import { renderInvoice } from "../../../views/pos-order";
import { InvoiceSchema } from "../../../views/pos-order-schema";
import { CalculateOrderBody } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/orders/calculate",
  tags: ["POS orders"],
  summary: "Preview an order's totals without creating it",
  description:
    "Priced by the same function as create and pay. Order of operations: line totals → discount → promocode → tax → total. A promocode's uses by the bookings in booking_uuids are not counted against its limit.",
  request: jsonBody(CalculateOrderBody),
  responses: {
    200: json(z.object({ invoice: InvoiceSchema }), "The invoice"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const invoice = await calculateInvoice(c.var.scope, {
    locationId: body.location_uuid,
    lines: requestedLines(body),
    discountAmount: body.discount_amount ?? null,
    promocode: body.promocode ?? null,
    excludedBookingIds: body.booking_uuids ?? [],
  });
  return c.json({ invoice: renderInvoice(invoice, null) }, 200);
};

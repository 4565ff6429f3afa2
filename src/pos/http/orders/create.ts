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
} from "../../../http/responses";
import { createPosOrder } from "../../orders/create";
import { withFields } from "../../../http/request-fields";
import { CREATE_FIELDS, requestedLines } from "./fields";
import { PosOrderSchema } from "../../views/pos-order-schema";
import { CreateOrderBody } from "./schema";

export const route = defineRoute({
  operationId: "createOrder",
  keys: "secret",
  method: "post",
  path: "/orders",
  tags: ["POS orders"],
  summary: "Open a POS order (payment is a separate call)",
  description:
    "The seller (staffer_uuid) must hold access-pos (403 otherwise) and work at the location. A line's staffer defaults to the seller. A promocode's discount is fixed when the order is created.",
  request: jsonBody(CreateOrderBody),
  responses: {
    201: json(PosOrderSchema, "The open order"),
    403: errorCodes("The seller lacks the access-pos permission", ["forbidden"]),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const order = await withFields(CREATE_FIELDS, () =>
    createPosOrder(c.var.deps.scope, {
      locationId: body.location_uuid,
      sellerId: body.staffer_uuid,
      customerId: body.customer_uuid ?? null,
      lines: requestedLines(body),
      discountMode: body.discount_mode ?? null,
      discountAmount: body.discount_amount ?? null,
      discountPercent: body.discount_percent ?? null,
      promocode: body.promocode ?? null,
      promocodeDiscountAmount: body.promocode_discount_amount ?? null,
      description: body.description ?? null,
      comment: body.comment ?? null,
      invoiceNote: body.invoice_note ?? null,
    }),
  );
  return c.json(order, 201);
};

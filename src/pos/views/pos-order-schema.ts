import { z } from "@hono/zod-openapi";
import { CustomerSchema } from "../../catalogue/views/customer";

const TaxSchema = z
  .object({
    name: z.string(),
    rate_bp: z.number().int().openapi({ description: "Rate in basis points (2000 = 20 %)" }),
    amount: z.number().int(),
  })
  .openapi("Tax");

export const InvoiceSchema = z
  .object({
    base_amount: z.number().int(),
    discount_amount: z.number().int().openapi({ description: "Signed: a discount is negative" }),
    promocode: z.string().nullable(),
    promocode_discount_amount: z.number().int(),
    subtotal: z.number().int(),
    taxes: z.array(TaxSchema),
    total: z.number().int(),
    base_price: z.number().int().openapi({ description: "The lines at catalogue prices" }),
    amount_due: z.number().int(),
    voucher_paid_amount: z.number().int(),
    account_paid_amount: z
      .number()
      .int()
      .openapi({ description: "Signed: money paid is negative" }),
    amount_paid: z.number().int(),
    order_uuid: z.string().nullable(),
    status: z.string().nullable(),
  })
  .openapi("Invoice");

const line = {
  name: z.string(),
  quantity: z.number().int(),
  price: z.number().int().openapi({ description: "Unit price, minor units" }),
  staffer_uuid: z.string().nullable(),
};

export const PosOrderSchema = z
  .object({
    uuid: z.string(),
    status: z.enum(["open", "paid", "cancelled", "refunded"]),
    order_number: z.number().int(),
    is_reverted: z.boolean().openapi({ description: "True once the order is refunded" }),
    refund_reason: z.string().nullable(),
    booking_uuids: z.array(z.string()),
    created_at: z.string(),
    location_uuid: z.string(),
    staffer_uuid: z.string().nullable().openapi({ description: "The seller" }),
    base_amount: z.number().int(),
    subtotal: z.number().int(),
    taxes: z.array(TaxSchema),
    total: z.number().int(),
    amount_due: z.number().int(),
    account_paid_amount: z.number().int(),
    voucher_paid_amount: z.number().int(),
    online_paid_amount: z.number().int().openapi({
      description:
        "What the order was paid online (`POST /orders/{uuid}/checkout`), on the location's online account",
    }),
    online_refunded_amount: z.number().int().openapi({
      description:
        "Of that, what the refund gives back to the customer's card at the payment provider (0 until refunded)",
    }),
    discount_amount: z.number().int(),
    discount_mode: z.enum(["fixed", "percent"]).nullable(),
    discount_percent: z.number().int().nullable(),
    promocode: z.string().nullable(),
    promocode_discount_amount: z.number().int().nullable(),
    payment_method: z.string().nullable(),
    account_uuid: z.string().nullable(),
    paid_at: z.string().nullable(),
    comment: z.string().nullable(),
    description: z.string().nullable(),
    invoice_note: z.string().nullable(),
    // A union, not `.nullable()`: on a registered component that renders as an allOf that refuses null.
    customer: z.union([CustomerSchema, z.null()]),
    goods: z.array(z.object({ good_uuid: z.string(), article: z.string().nullable(), ...line })),
    services: z.array(
      z.object({ service_uuid: z.string(), booking_uuid: z.string().nullable(), ...line }),
    ),
    vouchers: z.array(
      z.object({
        voucher_template_uuid: z.string(),
        ...line,
        codes: z
          .array(z.string())
          .openapi({ description: "The vouchers this line issued (one per unit) once paid" }),
      }),
    ),
    packages: z.array(
      z.object({
        package_uuid: z.string(),
        ...line,
        customer_package_uuids: z.array(z.string()).openapi({
          description:
            "The customer packages this line issued (one per unit) once paid (GET /customer-packages)",
        }),
      }),
    ),
  })
  .openapi("PosOrder");

export type PosOrder = z.infer<typeof PosOrderSchema>;
export type Invoice = z.infer<typeof InvoiceSchema>;

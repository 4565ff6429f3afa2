import { z } from "@hono/zod-openapi";
import {
  MAX_LINES_PER_KIND,
  MAX_ORDER_TOTAL,
  MAX_QUANTITY,
  MAX_UNIT_PRICE,
} from "../../../platform/rules/money";
import { MAX_PAYMENT_VOUCHERS } from "../../rules";
import {
  money,
  nonEmpty,
  optionalText,
  orderAmount,
  quantity,
  uuid,
} from "../../../platform/fields";

const lines = <T extends z.ZodType>(line: T) =>
  z
    .array(line)
    .max(MAX_LINES_PER_KIND, `At most ${MAX_LINES_PER_KIND} lines of each kind.`)
    .openapi({
      description: `At most ${MAX_LINES_PER_KIND} lines. With unit prices ≤ ${MAX_UNIT_PRICE} and quantities ≤ ${MAX_QUANTITY}, no order total can exceed ${MAX_ORDER_TOTAL} minor units (below 2^53, so every amount is exact).`,
    });
const promocode = nonEmpty(64);

const GoodLine = z.object({
  good_uuid: uuid("good_uuid"),
  price: money,
  quantity,
  staffer_uuid: uuid("staffer_uuid").optional(),
});
const ServiceLine = z.object({
  service_uuid: uuid("service_uuid"),
  price: money,
  quantity,
  staffer_uuid: uuid("staffer_uuid").optional(),
  booking_uuid: uuid("booking_uuid").optional(),
});
const VoucherLine = z.object({
  voucher_template_uuid: uuid("voucher_template_uuid"),
  price: money,
  quantity,
  staffer_uuid: uuid("staffer_uuid").optional(),
});

const PackageLine = z.object({
  package_uuid: uuid("package_uuid"),
  price: money,
  quantity,
  staffer_uuid: uuid("staffer_uuid").optional(),
});

/** Vouchers offered as payment: spent first, in this order, each up to `amount` or its balance. */
export const PaymentVouchers = z
  .array(
    z.object({
      code: z.string().min(1, "Required.").max(64, "At most 64 characters."),
      amount: orderAmount
        .refine((n) => n > 0, "Must be at least 1.")
        .optional()
        .openapi({ description: "The most this voucher should cover; default: its balance" }),
    }),
  )
  .max(MAX_PAYMENT_VOUCHERS, `At most ${MAX_PAYMENT_VOUCHERS} vouchers.`);

export const voucherOffers = (v: z.infer<typeof PaymentVouchers> | undefined) =>
  (v ?? []).map((o) => ({ code: o.code, amount: o.amount ?? null }));

export const CalculateOrderBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    goods: lines(GoodLine.omit({ staffer_uuid: true })).optional(),
    services: lines(ServiceLine.omit({ staffer_uuid: true, booking_uuid: true })).optional(),
    vouchers: lines(VoucherLine.omit({ staffer_uuid: true })).optional(),
    packages: lines(PackageLine.omit({ staffer_uuid: true }))
      .optional()
      .openapi({
        description:
          "Package templates (POST /packages) sold: each must be live and in the workspace's currency",
      }),
    discount_amount: orderAmount.optional(),
    promocode: promocode.optional(),
    booking_uuids: z
      .array(uuid("booking_uuid"))
      .max(MAX_LINES_PER_KIND, `At most ${MAX_LINES_PER_KIND} bookings.`)
      .optional()
      .openapi({ description: "Bookings whose own use of the promocode is not counted" }),
    payment_vouchers: PaymentVouchers.optional().openapi({
      description:
        "Vouchers the customer would pay with (as in pay's `vouchers`): the invoice shows what they cover",
    }),
  })
  .openapi("CalculateOrder");

export const CreateOrderBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    staffer_uuid: uuid("staffer_uuid").openapi({
      description: "The seller; must hold access-pos",
    }),
    customer_uuid: uuid("customer_uuid").optional(),
    goods: lines(GoodLine).optional(),
    services: lines(ServiceLine).optional(),
    vouchers: lines(VoucherLine).optional(),
    packages: lines(PackageLine).optional().openapi({
      description:
        "Package templates (POST /packages) sold: each must be live and in the workspace's currency, and the order must name customer_uuid (their owner). Paying issues one customer package per unit; a membership (renews) is paid online (POST /orders/{order_uuid}/checkout), not at a till.",
    }),
    discount_amount: orderAmount.optional(),
    discount_mode: z.enum(["fixed", "percent"]).optional(),
    discount_percent: z
      .number()
      .int("Must be a whole number.")
      .min(0, "Must be at least 0.")
      .max(100, "May not be greater than 100.")
      .optional(),
    promocode: promocode.optional(),
    promocode_discount_amount: orderAmount.optional(),
    description: optionalText().optional(),
    comment: optionalText().optional(),
    invoice_note: optionalText().optional(),
  })
  .superRefine((b, ctx) => {
    const problem = (path: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [path], message });
    if (!b.goods?.length && !b.services?.length && !b.vouchers?.length && !b.packages?.length)
      problem("goods", "At least one of goods, services, vouchers or packages is required.");
    if (b.discount_mode === "percent") {
      if (b.discount_percent === undefined)
        problem("discount_percent", "Required when discount_mode is percent.");
      if (b.discount_amount !== undefined)
        problem("discount_amount", "Send discount_percent, not discount_amount, with percent.");
    } else if (b.discount_percent !== undefined) {
      problem("discount_percent", "Only allowed when discount_mode is percent.");
    }
    if (b.discount_mode === "fixed" && b.discount_amount === undefined)
      problem("discount_amount", "Required when discount_mode is fixed.");
    if (b.promocode_discount_amount !== undefined && b.promocode === undefined)
      problem("promocode_discount_amount", "Only allowed together with a promocode.");
  })
  .openapi("CreateOrder");

export const PayOrderBody = z
  .object({
    account_uuid: uuid("account_uuid").optional().openapi({
      description:
        "Cash or card account of the order's branch that pays what the vouchers leave; required when anything is left",
    }),
    vouchers: PaymentVouchers.optional(),
  })
  .openapi("PayOrder");

export const RefundOrderBody = z
  .object({
    account_uuid: uuid("account_uuid").optional().openapi({
      description: "The account the money goes back out of; default: the one the order was paid on",
    }),
    reason: optionalText(1000).optional(),
  })
  .openapi("RefundOrder");

export const OrderPath = z.object({
  order_uuid: uuid("order_uuid").openapi({ param: { name: "order_uuid", in: "path" } }),
});

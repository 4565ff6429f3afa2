import { z } from "@hono/zod-openapi";
import type { VoucherRow } from "../queries/vouchers";

export const VoucherSchema = z
  .object({
    code: z.string().openapi({ example: "7KQ2-M9XH-C4TA-3WNE" }),
    template_uuid: z.string(),
    initial_amount: z.number().int(),
    balance: z.number().int(),
    status: z.enum(["active", "redeemed", "void"]),
    order_uuid: z.string().openapi({ description: "The order that sold it" }),
  })
  .openapi("Voucher");

export type Voucher = z.infer<typeof VoucherSchema>;

export const renderVoucher = (v: VoucherRow): Voucher => ({
  code: v.code,
  template_uuid: v.templateId,
  initial_amount: v.initialAmount,
  balance: v.balance,
  status: v.status,
  order_uuid: v.orderId,
});

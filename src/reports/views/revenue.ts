import { z } from "@hono/zod-openapi";
import { groupFields, money, reportOf } from "./report";

export const REVENUE_GROUPS = [
  "day",
  "week",
  "month",
  "staffer",
  "service",
  "payment_method",
] as const;
export const RevenueGroupBy = z.enum(REVENUE_GROUPS).openapi("RevenueGroupBy");

const sums = {
  bookings_completed: z
    .number()
    .int()
    .openapi({ description: "Bookings completed (on the day of the complete)" }),
  services_amount: money.minor("Services sold (gross of discounts)"),
  goods_amount: money.minor("Goods sold (gross of discounts)"),
  vouchers_sold: money.minor("Vouchers sold"),
  packages_sold: money.minor("Packages and membership renewals sold"),
  fees: money.minor("Late-cancel and no-show fees charged"),
  refunds: money.minor("Refunded on the day of the refund"),
  discounts: money.minor("Discounts and promo codes"),
  net: money.minor("Amounts + fees − discounts − refunds"),
  currency: z.string(),
};

export const RevenueRow = z.object({ ...groupFields, ...sums }).openapi("RevenueRow");
export const RevenueTotals = z.object(sums).openapi("RevenueTotals");
export const RevenueReport = reportOf(RevenueGroupBy, RevenueRow, RevenueTotals).openapi(
  "RevenueReport",
  {
    description:
      "Sales counted when an order is paid (its paid day in the location's zone); refunds on their day; fees when charged or kept.",
  },
);

export type RevenueGroup = z.infer<typeof RevenueGroupBy>;
export type RevenueRow = z.infer<typeof RevenueRow>;
export type RevenueTotals = z.infer<typeof RevenueTotals>;
export type RevenueReport = z.infer<typeof RevenueReport>;

/** The sums a revenue rollup row keeps, by column. */
export const REVENUE_SUMS = [
  "bookings_completed",
  "services_amount",
  "goods_amount",
  "vouchers_sold",
  "packages_sold",
  "fees",
  "refunds",
  "discounts",
] as const;
export type RevenueSum = (typeof REVENUE_SUMS)[number];

/** Each sum's property on a rollup row (the schema's name for the column). */
export const REVENUE_PROPERTY = {
  bookings_completed: "bookingsCompleted",
  services_amount: "servicesAmount",
  goods_amount: "goodsAmount",
  vouchers_sold: "vouchersSold",
  packages_sold: "packagesSold",
  fees: "fees",
  refunds: "refunds",
  discounts: "discounts",
} as const satisfies Record<RevenueSum, string>;
export type RevenueProperty = (typeof REVENUE_PROPERTY)[RevenueSum];

/** A rollup row's sums, all zero, by property. */
export const zeroRevenue = () =>
  Object.fromEntries(REVENUE_SUMS.map((s) => [REVENUE_PROPERTY[s], 0])) as Record<
    RevenueProperty,
    number
  >;

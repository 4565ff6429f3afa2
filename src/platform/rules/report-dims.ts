/** The dimensions the revenue rollup is kept by (each sums to the same totals). */
export const REVENUE_DIMS = ["day", "staffer", "service", "payment_method"] as const;
export type RevenueDim = (typeof REVENUE_DIMS)[number];

/** The dimensions the bookings (no-shows) rollup is kept by. */
export const BOOKING_DIMS = ["service", "staffer", "customer"] as const;
export type BookingDim = (typeof BOOKING_DIMS)[number];

import type { ZoneOffset } from "../../catalogue/rules/zone-offsets";
import type { BookingState } from "./booking-counts";
import type { SaleLine } from "./revenue-entries";

/**
 * The raw rows of one location a rebuild reads: what the triggers of 0038 and
 * the order batches counted, before counting. An order comes with its lines
 * already priced as its invoice prices them (the pos rules, wired by the caller).
 */
export interface RawRows {
  locationId: string;
  offsets: ZoneOffset[];
  bookings: (BookingState & {
    id: string;
    customerId: string;
    orderId: string;
    completedAt: number | null;
    completedPaymentMethod: string | null;
    isCompleted: boolean;
  })[];
  bookingServices: {
    id: string;
    bookingId: string;
    serviceId: string;
    stafferId: string;
    position: number;
  }[];
  /** booking_payments rows of the location's bookings that kept a fee. */
  keptFees: { bookingId: string; feeKept: number; settledAt: number | null; createdAt: number }[];
  /** payments rows of the location's bookings (fees are kind late_cancel_fee / no_show_fee). */
  payments: {
    bookingId: string;
    kind: string;
    status: string;
    amount: number;
    updatedAt: number;
  }[];
  calendarEntries: {
    id: string;
    stafferId: string | null;
    kind: string;
    startsAt: number;
    endsAt: number;
    sessionKey: string | null;
  }[];
  orders: {
    id: string;
    status: string;
    paymentMethod: string | null;
    paidAt: number | null;
    closedAt: number | null;
    lines: SaleLine[];
  }[];
  /** package_renewals of the location's customer packages. */
  renewals: { status: string; amount: number; updatedAt: number }[];
}

export interface RevenueDayRow {
  dim: string;
  day: number;
  key: string;
  bookingsCompleted: number;
  servicesAmount: number;
  goodsAmount: number;
  vouchersSold: number;
  packagesSold: number;
  fees: number;
  refunds: number;
  discounts: number;
}

export interface CalendarDayRow {
  day: number;
  stafferId: string;
  bookedMs: number;
  blockedMs: number;
}

export interface BookingDayRow {
  dim: string;
  day: number;
  key: string;
  bookings: number;
  didntCome: number;
  lateCancels: number;
  fees: number;
}

export interface Rollups {
  revenue: RevenueDayRow[];
  calendar: CalendarDayRow[];
  bookings: BookingDayRow[];
}

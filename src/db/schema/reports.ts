import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { BOOKING_DIMS, REVENUE_DIMS } from "../../platform/rules/report-dims";

/**
 * A location's UTC offsets, one row per transition of its zone (from `fromMs`
 * on): SQLite knows no time zones, so the rollups' SQL finds a location's day
 * here (migrations/0038_reports.sql). Written with the location; a zone change
 * keeps the past rows and replaces the future ones.
 */
export const locationOffsets = sqliteTable(
  "location_offsets",
  {
    locationId: text("location_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    fromMs: integer("from_ms").notNull(),
    offsetMs: integer("offset_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.fromMs] })],
);

/**
 * Money of a location's day (days since 1970-01-01 on its wall clock) per
 * dimension and key ('' = none). Kept in the transaction that moves it: the
 * triggers of 0038 (fees, renewals) and the order batches (sales, refunds).
 * `changes` only grows (a rebuild commits only if it did not move meanwhile).
 */
export const reportRevenueDays = sqliteTable(
  "report_revenue_days",
  {
    locationId: text("location_id").notNull(),
    dim: text("dim", { enum: REVENUE_DIMS }).notNull(),
    day: integer("day").notNull(),
    key: text("key").notNull(),
    workspaceId: text("workspace_id").notNull(),
    bookingsCompleted: integer("bookings_completed").notNull().default(0),
    servicesAmount: integer("services_amount").notNull().default(0),
    goodsAmount: integer("goods_amount").notNull().default(0),
    vouchersSold: integer("vouchers_sold").notNull().default(0),
    packagesSold: integer("packages_sold").notNull().default(0),
    fees: integer("fees").notNull().default(0),
    refunds: integer("refunds").notNull().default(0),
    discounts: integer("discounts").notNull().default(0),
    changes: integer("changes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.dim, t.day, t.key] })],
);

/** A staffer's booked and blocked time of a location's day (ms), kept by triggers on the calendar. */
export const reportCalendarDays = sqliteTable(
  "report_calendar_days",
  {
    locationId: text("location_id").notNull(),
    day: integer("day").notNull(),
    stafferId: text("staffer_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    bookedMs: integer("booked_ms").notNull().default(0),
    blockedMs: integer("blocked_ms").notNull().default(0),
    changes: integer("changes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.day, t.stafferId] })],
);

/** Bookings by the location's day of their start, per dimension, kept by triggers on bookings. */
export const reportBookingDays = sqliteTable(
  "report_booking_days",
  {
    locationId: text("location_id").notNull(),
    dim: text("dim", { enum: BOOKING_DIMS }).notNull(),
    day: integer("day").notNull(),
    key: text("key").notNull(),
    workspaceId: text("workspace_id").notNull(),
    bookings: integer("bookings").notNull().default(0),
    didntCome: integer("didnt_come").notNull().default(0),
    lateCancels: integer("late_cancels").notNull().default(0),
    fees: integer("fees").notNull().default(0),
    changes: integer("changes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.dim, t.day, t.key] })],
);

/** 0 … 1099: the days a calendar entry spans past its first (reference data, every database). */
export const reportDaySteps = sqliteTable("report_day_steps", {
  i: integer("i").primaryKey(),
});

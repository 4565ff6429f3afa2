import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orders } from "./orders";
import { workspaces } from "./workspaces";

/**
 * A voucher sold at the till: one row per unit of a paid voucher line. The
 * code is kept in plain text (normalised: upper case, in dashed groups) because the paid order
 * shows the codes it issued; it is a bearer secret of ≥ 80 random bits, read
 * only through the workspace's API key.
 */
export const vouchers = sqliteTable(
  "vouchers",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    code: text("code").notNull(),
    templateId: text("template_id").notNull(),
    /** The order that sold it, and the line. */
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    orderLineId: text("order_line_id").notNull(),
    initialAmount: integer("initial_amount").notNull(),
    balance: integer("balance").notNull(),
    status: text("status", { enum: ["active", "redeemed", "void"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("vouchers_workspace_code_uq").on(t.workspaceId, t.code),
    index("vouchers_order_idx").on(t.orderId),
    // The last line of defence under concurrency: no write can leave a balance negative or above its value.
    check("vouchers_balance_range", sql`${t.balance} >= 0 and ${t.balance} <= ${t.initialAmount}`),
  ],
);

/** One voucher's part in paying one order; a refund restores and marks it. */
export const voucherPayments = sqliteTable(
  "voucher_payments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    voucherId: text("voucher_id")
      .notNull()
      .references(() => vouchers.id),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    bookingId: text("booking_id"),
    amount: integer("amount").notNull(),
    createdAt: integer("created_at").notNull(),
    revertedAt: integer("reverted_at"),
  },
  (t) => [
    index("voucher_payments_order_idx").on(t.orderId),
    index("voucher_payments_voucher_idx").on(t.voucherId),
  ],
);

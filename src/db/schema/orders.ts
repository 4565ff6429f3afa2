import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { customers } from "./customers";
import { locations } from "./locations";
import { accounts } from "./settings";
import { workspaces } from "./workspaces";

/** Booking orders and POS orders share one table; `kind` keeps the POS list free of booking orders. */
export const orders = sqliteTable(
  "orders",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    kind: text("kind", { enum: ["booking", "pos"] }).notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The seller (POS) or null for booking orders. */
    stafferId: text("staffer_id"),
    customerId: text("customer_id").references(() => customers.id),
    status: text("status", { enum: ["open", "paid", "cancelled", "refunded"] }).notNull(),
    orderNumber: integer("order_number").notNull(),
    isReverted: integer("is_reverted", { mode: "boolean" }).notNull().default(false),
    discountAmount: integer("discount_amount").notNull().default(0),
    discountMode: text("discount_mode", { enum: ["fixed", "percent"] }),
    discountPercent: integer("discount_percent"),
    promocode: text("promocode"),
    promocodeDiscountAmount: integer("promocode_discount_amount"),
    subtotal: integer("subtotal").notNull().default(0),
    taxTotal: integer("tax_total").notNull().default(0),
    total: integer("total").notNull().default(0),
    accountPaidAmount: integer("account_paid_amount").notNull().default(0),
    voucherPaidAmount: integer("voucher_paid_amount").notNull().default(0),
    /** What was paid online for the order's completed bookings (on the location's online account). */
    onlinePaidAmount: integer("online_paid_amount").notNull().default(0),
    accountId: text("account_id").references(() => accounts.id),
    paymentMethod: text("payment_method"),
    comment: text("comment"),
    description: text("description"),
    invoiceNote: text("invoice_note"),
    createdAt: integer("created_at").notNull(),
    paidAt: integer("paid_at"),
    /** When the order was cancelled or refunded. */
    closedAt: integer("closed_at"),
    refundReason: text("refund_reason"),
    /** Bumped by every write; each write commits only at the version it read (compare-and-set). */
    version: integer("version").notNull().default(0),
  },
  (t) => [
    uniqueIndex("orders_workspace_number_uq").on(t.workspaceId, t.orderNumber),
    // GET /orders: POS orders of a workspace, newest first.
    index("orders_workspace_kind_created_idx").on(t.workspaceId, t.kind, t.createdAt),
  ],
);

export const orderLines = sqliteTable(
  "order_lines",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    kind: text("kind", { enum: ["good", "service", "voucher", "package"] }).notNull(),
    /** The good, service, voucher template or package template sold. */
    refId: text("ref_id").notNull(),
    bookingId: text("booking_id"),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    article: text("article"),
    unitPrice: integer("unit_price").notNull(),
    catalogPrice: integer("catalog_price").notNull(),
    quantity: integer("quantity").notNull(),
    stafferId: text("staffer_id"),
    taxName: text("tax_name"),
    taxRateBp: integer("tax_rate_bp"),
  },
  (t) => [index("order_lines_order_idx").on(t.orderId)],
);

/** Per-workspace sequences (order numbers), bumped inside the batch that uses them. */
export const workspaceCounters = sqliteTable(
  "workspace_counters",
  {
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.name] })],
);

/** Money credited to a payment account (booking completion, POS payment). */
export const accountTransactions = sqliteTable(
  "account_transactions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    orderId: text("order_id"),
    bookingId: text("booking_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("account_transactions_account_idx").on(t.accountId)],
);

/** One row per use of a promocode, so usage counts can exclude given bookings. */
export const promocodeUses = sqliteTable(
  "promocode_uses",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    promocodeId: text("promocode_id").notNull(),
    orderId: text("order_id"),
    bookingId: text("booking_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("promocode_uses_promocode_idx").on(t.promocodeId)],
);

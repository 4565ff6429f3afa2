import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { customers } from "./customers";
import { jsonText, StringListSchema } from "./json-text";
import { workspaces } from "./workspaces";

/** A template's credits as stored: the services each credit may pay for, and how many. */
export const StoredTemplateCreditsSchema = z.array(
  z.object({ service_ids: z.array(z.string()), count: z.number().int() }),
);

/**
 * A package template ("10 massages"); `renews` makes it a membership
 * ("8 classes a month"). Selling it copies what a customer package needs,
 * so a later PATCH never changes what was sold.
 */
export const packages = sqliteTable(
  "packages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    price: integer("price").notNull(),
    currency: text("currency").notNull(),
    credits: jsonText("credits", "packages", StoredTemplateCreditsSchema).notNull(),
    validDays: integer("valid_days").notNull(),
    renews: text("renews", { enum: ["month"] }),
    /** False stops selling it; what was sold stays usable. */
    live: integer("live", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    version: integer("version").notNull().default(0),
  },
  // GET /packages: a workspace's templates, oldest first (cursor on created_at, id).
  (t) => [index("packages_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

/**
 * One unit of a paid package line, owned by the order's customer. `status`
 * stores only what is decided by a write (`active`, `void`); `used_up` and
 * `expired` are read from the credits and the clock. A membership also keeps
 * its billing: the period last paid, when the next charge is due, the card.
 */
export const customerPackages = sqliteTable(
  "customer_packages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    orderId: text("order_id").notNull(),
    orderLineId: text("order_line_id").notNull(),
    name: text("name").notNull(),
    /** What one unit was sold for (the line's price): a membership renews at it. */
    price: integer("price").notNull(),
    currency: text("currency").notNull(),
    validDays: integer("valid_days").notNull(),
    renews: text("renews", { enum: ["month"] }),
    /** The template's credit lines when sold: every period's credits are issued from these. */
    creditLines: jsonText(
      "credit_lines",
      "customer_packages",
      StoredTemplateCreditsSchema,
    ).notNull(),
    status: text("status", { enum: ["active", "void"] }).notNull(),
    /** The instant the first period (or the package) started: periods are counted from it. */
    startsAt: integer("starts_at").notNull(),
    /** When the newest credits issued stop being usable (a booking must start before it). */
    expiresAt: integer("expires_at").notNull(),
    /** Membership: the newest period paid (1 = the one sold with the order). */
    period: integer("period").notNull().default(1),
    /** Membership: whether it renews at the period's end (cancel turns it off). */
    renewing: integer("renewing", { mode: "boolean" }).notNull().default(false),
    /** Membership: the charge for `period + 1` failed and is not paid yet. */
    pastDue: integer("past_due", { mode: "boolean" }).notNull().default(false),
    /** Membership: when the renewal sweep next tries to charge (null: nothing to charge). */
    nextChargeAt: integer("next_charge_at"),
    providerCustomer: text("provider_customer"),
    paymentMethod: text("payment_method"),
    /** The location whose online account takes a membership's renewals (the selling order's). */
    locationId: text("location_id").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    version: integer("version").notNull().default(0),
  },
  (t) => [
    // GET /customer-packages?customer_uuid=: a customer's packages, oldest first.
    index("customer_packages_customer_idx").on(t.workspaceId, t.customerId, t.createdAt, t.id),
    // A refund voids what its order issued.
    index("customer_packages_order_idx").on(t.orderId),
    // The renewal sweep: memberships whose charge is due (null for everything else).
    index("customer_packages_due_idx").on(t.nextChargeAt),
  ],
);

/**
 * One credit line of a customer package for one period: the services it pays
 * for and its counts. The CHECK is the last line of defence: no write under
 * any concurrency leaves a count below zero or more taken than there is.
 */
export const customerPackageCredits = sqliteTable(
  "customer_package_credits",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    customerPackageId: text("customer_package_id")
      .notNull()
      .references(() => customerPackages.id),
    period: integer("period").notNull(),
    position: integer("position").notNull(),
    serviceIds: jsonText("service_ids", "customer_package_credits", StringListSchema).notNull(),
    total: integer("total").notNull(),
    used: integer("used").notNull().default(0),
    reserved: integer("reserved").notNull().default(0),
    /** A booking using this credit must start before it. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("customer_package_credits_package_idx").on(t.customerPackageId, t.period, t.position),
    check(
      "customer_package_credits_range",
      sql`${t.used} >= 0 and ${t.reserved} >= 0 and ${t.used} + ${t.reserved} <= ${t.total}`,
    ),
  ],
);

/**
 * A booked service paid by a credit: `reserved` while the booking is ahead,
 * `used` once completed (or cancelled late, or a no-show, under the
 * service's policy), `returned` when a cancel gave the credit back. One per
 * booked service, so no retry can take a second credit for it.
 */
export const packageCreditUses = sqliteTable(
  "package_credit_uses",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    bookingId: text("booking_id").notNull(),
    bookingServiceId: text("booking_service_id").notNull(),
    customerPackageId: text("customer_package_id").notNull(),
    creditId: text("credit_id")
      .notNull()
      .references(() => customerPackageCredits.id),
    count: integer("count").notNull(),
    state: text("state", { enum: ["reserved", "used", "returned"] }).notNull(),
    /**
     * The service's policy when the booking was made (later changes never touch it):
     * a cancel this many minutes or less before the start uses the credit (null: never).
     */
    lateCancelMinutes: integer("late_cancel_minutes"),
    /** A no-show (`didnt_come`) uses the credit: the policy had a no-show fee. */
    noShowUses: integer("no_show_uses", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("package_credit_uses_service_uq").on(t.bookingServiceId),
    index("package_credit_uses_booking_idx").on(t.bookingId),
    index("package_credit_uses_package_idx").on(t.customerPackageId),
  ],
);

/**
 * A membership's charge for one period. One row per (membership, period):
 * whoever runs the renewal twice finds it, so a period is charged once and
 * its credits issued once. `attempt` names the Idempotency-Key of the
 * current try (a declined card is tried again under a new key, a lost
 * answer again under the same one).
 */
export const packageRenewals = sqliteTable(
  "package_renewals",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    customerPackageId: text("customer_package_id")
      .notNull()
      .references(() => customerPackages.id),
    period: integer("period").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /**
     * refund_pending/refunded/refund_failed: the charge succeeded but the membership was
     * void by the time its answer was written, so the money goes back (refund_ref: the refund).
     */
    status: text("status", {
      enum: ["pending", "succeeded", "failed", "refund_pending", "refunded", "refund_failed"],
    }).notNull(),
    attempt: integer("attempt").notNull().default(1),
    providerRef: text("provider_ref"),
    failureReason: text("failure_reason"),
    refundRef: text("refund_ref"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("package_renewals_period_uq").on(t.customerPackageId, t.period),
    // The sweep: tries (and refunds) whose provider answer was lost, whatever the membership.
    index("package_renewals_pending_idx").on(t.status, t.updatedAt),
  ],
);

import { z } from "@hono/zod-openapi";
import type { customerPackageCredits, customerPackages } from "../../db/schema";
import { toIso } from "../../platform/clock";
import { packageStatus } from "../rules/status";

export const CustomerPackageCreditSchema = z
  .object({
    service_uuids: z.array(z.string()),
    total: z.number().int(),
    used: z.number().int(),
    reserved: z.number().int().openapi({ description: "Held by bookings not yet completed" }),
    period: z
      .number()
      .int()
      .openapi({ description: "The membership period that issued it (1 for a package)" }),
    expires_at: z
      .string()
      .openapi({ description: "A booking using it must start before this instant" }),
  })
  .openapi("CustomerPackageCredit");

export const MembershipSchema = z
  .object({
    renews: z.object({ every: z.literal("month") }),
    period: z.number().int().openapi({ description: "The newest period paid (1: the one sold)" }),
    current_period_start: z.string(),
    current_period_end: z.string(),
    renewing: z
      .boolean()
      .openapi({ description: "False once cancelled: it stops at the period's end" }),
    past_due: z
      .boolean()
      .openapi({ description: "The latest renewal charge failed and is not paid yet" }),
    next_charge_at: z.string().nullable(),
  })
  .openapi("Membership");

export const CustomerPackageSchema = z
  .object({
    uuid: z.string(),
    package_uuid: z.string(),
    customer_uuid: z.string(),
    order_uuid: z.string(),
    name: z.string(),
    price: z.number().int(),
    currency: z.string(),
    credits: z.array(CustomerPackageCreditSchema),
    expires_at: z.string(),
    status: z.enum(["active", "used_up", "expired", "void", "past_due"]).openapi({
      description:
        "active: it can pay for a booking; used_up: nothing left to book with; expired; void (its order was refunded); past_due: a membership whose renewal charge failed",
    }),
    membership: MembershipSchema.nullable(),
    created_at: z.string(),
  })
  .openapi("CustomerPackage");

export type CustomerPackage = z.infer<typeof CustomerPackageSchema>;

export type CustomerPackageRow = typeof customerPackages.$inferSelect;
export type CreditRow = typeof customerPackageCredits.$inferSelect;

/**
 * The credits a package shows: every one still usable, or (when none is)
 * those of its newest period, so an expired package still shows what it held.
 */
export function shownCredits(pkg: CustomerPackageRow, credits: readonly CreditRow[], now: number) {
  const live = credits.filter((c) => c.expiresAt > now);
  const shown = live.length > 0 ? live : credits.filter((c) => c.period === pkg.period);
  return [...shown].sort((a, b) => a.period - b.period || a.position - b.position);
}

/** A customer package as the API shows it at `now`, from its row and all its credit rows. */
export function renderCustomerPackage(
  pkg: CustomerPackageRow,
  credits: readonly CreditRow[],
  now: number,
  periodBounds: (period: number) => { start: number; end: number },
): CustomerPackage {
  const bounds = periodBounds(pkg.period);
  return {
    uuid: pkg.id,
    package_uuid: pkg.packageId,
    customer_uuid: pkg.customerId,
    order_uuid: pkg.orderId,
    name: pkg.name,
    price: pkg.price,
    currency: pkg.currency,
    credits: shownCredits(pkg, credits, now).map((c) => ({
      service_uuids: c.serviceIds,
      total: c.total,
      used: c.used,
      reserved: c.reserved,
      period: c.period,
      expires_at: toIso(c.expiresAt),
    })),
    expires_at: toIso(pkg.expiresAt),
    status: packageStatus(pkg, credits, now),
    membership: pkg.renews
      ? {
          renews: { every: pkg.renews },
          period: pkg.period,
          current_period_start: toIso(bounds.start),
          current_period_end: toIso(bounds.end),
          renewing: pkg.renewing,
          past_due: pkg.pastDue,
          next_charge_at: pkg.nextChargeAt === null ? null : toIso(pkg.nextChargeAt),
        }
      : null,
    created_at: toIso(pkg.createdAt),
  };
}

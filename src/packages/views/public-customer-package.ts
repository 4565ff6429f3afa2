import { z } from "@hono/zod-openapi";
import type { CustomerPackage } from "./customer-package";

/**
 * What a booking widget (a publishable key) may see of a customer package:
 * enough to book with it, nothing about who bought it, for what, or the order.
 */
export const PublicCustomerPackageSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    status: z.enum(["active", "used_up", "expired", "void", "past_due"]),
    expires_at: z.string(),
    credits: z.array(
      z.object({
        service_uuids: z.array(z.string()),
        remaining: z
          .number()
          .int()
          .openapi({ description: "What it can still pay for: total less used and held" }),
        expires_at: z.string(),
      }),
    ),
    membership: z
      .object({
        current_period_start: z.string(),
        current_period_end: z.string(),
        renewing: z
          .boolean()
          .openapi({ description: "False once cancelled: it ends at current_period_end" }),
      })
      .nullable(),
  })
  .openapi("PublicCustomerPackage");

export type PublicCustomerPackage = z.infer<typeof PublicCustomerPackageSchema>;

/** The reduced view, from the full one (so both always agree on status and credits). */
export const publicCustomerPackage = (full: CustomerPackage): PublicCustomerPackage => ({
  uuid: full.uuid,
  name: full.name,
  status: full.status,
  expires_at: full.expires_at,
  credits: full.credits.map((c) => ({
    service_uuids: c.service_uuids,
    remaining: Math.max(0, c.total - c.used - c.reserved),
    expires_at: c.expires_at,
  })),
  membership: full.membership && {
    current_period_start: full.membership.current_period_start,
    current_period_end: full.membership.current_period_end,
    renewing: full.membership.renewing,
  },
});

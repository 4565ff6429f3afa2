import { z } from "@hono/zod-openapi";
import { toIso } from "../../platform/clock";
import { available, packageStatus } from "../rules/status";
import { type CreditRow, type CustomerPackageRow, shownCredits } from "./customer-package";

export const ManagedPackageCreditSchema = z
  .object({
    service_uuids: z.array(z.string()),
    service_names: z.array(z.string()).openapi({
      description:
        "The names of those services as the salon now calls them (a service since deleted is left out)",
    }),
    total: z.number().int(),
    remaining: z
      .number()
      .int()
      .openapi({ description: "What can still be booked with it: neither used nor reserved" }),
    reserved: z.number().int().openapi({ description: "Held by bookings not yet completed" }),
    expires_at: z
      .string()
      .openapi({ description: "A booking using it must start before this instant" }),
  })
  .openapi("ManagedPackageCredit");

export const ManagedPackageSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    status: z.enum(["active", "used_up", "past_due"]).openapi({
      description:
        "active: it can pay for a booking (the widget takes it as `package=<uuid>`); used_up: nothing left to book with now (a cancelled booking's credit comes back); past_due: a membership whose renewal charge failed",
    }),
    expires_at: z.string(),
    credits: z.array(ManagedPackageCreditSchema),
  })
  .openapi("ManagedPackage");

export type ManagedPackage = z.infer<typeof ManagedPackageSchema>;

/**
 * A customer package as its owner sees it on a manage page: no price, order
 * or billing, only what it still books. Null for one the page does not show
 * (void or expired at `now`).
 */
export function renderManagedPackage(
  pkg: CustomerPackageRow,
  credits: readonly CreditRow[],
  serviceNames: ReadonlyMap<string, string>,
  now: number,
): ManagedPackage | null {
  const status = packageStatus(pkg, credits, now);
  if (status === "void" || status === "expired") return null;
  return {
    uuid: pkg.id,
    name: pkg.name,
    status,
    expires_at: toIso(pkg.expiresAt),
    credits: shownCredits(pkg, credits, now).map((c) => ({
      service_uuids: c.serviceIds,
      service_names: c.serviceIds.flatMap((id) => {
        const name = serviceNames.get(id);
        return name === undefined ? [] : [name];
      }),
      total: c.total,
      remaining: Math.max(0, available(c)),
      reserved: c.reserved,
      expires_at: toIso(c.expiresAt),
    })),
  };
}

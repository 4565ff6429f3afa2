import { insertRows } from "../db/bounded";
import { customerPackageCredits, customerPackages, type packages } from "../db/schema";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import { eventsInsert } from "../webhooks/queries/outbox";
import { creditsExpireAt, periodBounds, periodStart } from "./rules";
import {
  type CreditRow,
  type CustomerPackageRow,
  renderCustomerPackage,
} from "./views/customer-package";

type TemplateRow = typeof packages.$inferSelect;

/** One package unit a paid order line sells. */
export interface SoldUnit {
  template: TemplateRow;
  orderId: string;
  orderLineId: string;
  locationId: string;
  customerId: string;
  /** What this unit was sold for: a membership renews at it. */
  price: number;
  /** The card saved when the order was paid online (a membership renews with it). */
  card?: { providerCustomer: string; paymentMethod: string } | undefined;
}

/** A period's credits for a package, from its template's credit lines. */
export function creditRowsFor(
  pkg: Pick<CustomerPackageRow, "id" | "workspaceId" | "startsAt" | "validDays" | "renews">,
  template: Pick<TemplateRow, "credits">,
  period: number,
): CreditRow[] {
  const start = pkg.renews ? periodStart(pkg.startsAt, period) : pkg.startsAt;
  const expiresAt = creditsExpireAt(start, pkg.validDays);
  return template.credits.map((c, position) => ({
    id: crypto.randomUUID(),
    workspaceId: pkg.workspaceId,
    customerPackageId: pkg.id,
    period,
    position,
    serviceIds: [...c.service_ids],
    total: c.count,
    used: 0,
    reserved: 0,
    expiresAt,
  }));
}

/**
 * The customer packages paying an order issues (one per unit), their first
 * period's credits and `package-issued` events: statements for the paying
 * batch, so the packages exist exactly when the order is paid. A membership
 * starts renewing when its card was saved; without one it has nothing to charge.
 */
export function issuePackages(scope: Scope, units: readonly SoldUnit[], at: number) {
  const records = units.map((u) => {
    const renews = u.template.renews;
    const base = {
      id: crypto.randomUUID(),
      workspaceId: scope.workspaceId,
      packageId: u.template.id,
      customerId: u.customerId,
      orderId: u.orderId,
      orderLineId: u.orderLineId,
      name: u.template.name,
      price: u.price,
      currency: u.template.currency,
      validDays: u.template.validDays,
      renews,
      creditLines: u.template.credits,
      status: "active" as const,
      startsAt: at,
      period: 1,
      renewing: renews !== null && u.card !== undefined,
      pastDue: false,
      providerCustomer: u.card?.providerCustomer ?? null,
      paymentMethod: u.card?.paymentMethod ?? null,
      locationId: u.locationId,
      createdAt: at,
      updatedAt: at,
      version: 0,
    };
    const credits = creditRowsFor(base, u.template, 1);
    const pkg: CustomerPackageRow = {
      ...base,
      expiresAt: creditsExpireAt(base.startsAt, u.template.validDays),
      nextChargeAt: base.renewing ? periodStart(base.startsAt, 2) : null,
    };
    return { pkg, credits };
  });
  const statements: Statement[] = [
    ...insertRows(
      scope.db,
      customerPackages,
      records.map((r) => r.pkg),
    ),
    ...insertRows(
      scope.db,
      customerPackageCredits,
      records.flatMap((r) => r.credits),
    ),
    ...eventsInsert(
      scope.db,
      scope.workspaceId,
      "package-issued",
      records.map((r) =>
        renderCustomerPackage(r.pkg, r.credits, at, (k) => periodBounds(r.pkg, k)),
      ),
    ),
  ];
  return { records, statements };
}

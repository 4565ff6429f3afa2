import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { insertRows } from "../../db/bounded";
import { customerPackageCredits } from "../../db/schema";
import { eventStatement } from "../../webhooks/queries/outbox";
import { creditRowsFor } from "../issue";
import { creditsExpireAt, nextChargeAfter, periodBounds, periodStart, retryAt } from "../rules";
import type { packages } from "../../db/schema";
import type { RenewalRow } from "../queries/renewals";
import { answerRenewal, renewalMoney, renewalStillPending, setBilling } from "../queries/renewals";
import { membershipStillBilled } from "../queries/renewal-tries";
import {
  type CreditRow,
  type CustomerPackageRow,
  renderCustomerPackage,
} from "../views/customer-package";

/** A membership as its renewal read it. */
export interface Membership {
  pkg: CustomerPackageRow;
  template: Pick<typeof packages.$inferSelect, "credits">;
  credits: CreditRow[];
}

const render = (pkg: CustomerPackageRow, credits: readonly CreditRow[], now: number) =>
  renderCustomerPackage(pkg, credits, now, (k) => periodBounds(pkg, k));

/**
 * The batch of a paid renewal, led by the try's guard (still pending at this
 * attempt) and the membership's (still active, at the period read: a refund
 * of its order may have voided it since; the sweep then refunds the charge
 * instead): the try succeeded, the period is the membership's, past_due is
 * cleared, the period's credits are issued, the money is on the selling
 * location's online account and `membership-renewed` is told. Whoever else
 * holds the same answer (a second sweep) fails the guard and writes nothing.
 */
export function renewalPaid(
  scope: Scope,
  m: Membership,
  renewal: Pick<RenewalRow, "id" | "attempt" | "period" | "amount">,
  providerRef: string,
  now: number,
): Statement[] {
  const at = Date.now();
  const period = renewal.period;
  const credits = creditRowsFor(m.pkg, m.template, period);
  const billing = { startsAt: m.pkg.startsAt, period, renewing: m.pkg.renewing };
  const pkg: CustomerPackageRow = {
    ...m.pkg,
    period,
    pastDue: false,
    expiresAt: creditsExpireAt(periodStart(m.pkg.startsAt, period), m.pkg.validDays),
    nextChargeAt: nextChargeAfter(billing),
    updatedAt: at,
  };
  return [
    renewalStillPending(scope, renewal),
    membershipStillBilled(scope, m.pkg),
    answerRenewal(scope, renewal.id, {
      status: "succeeded",
      providerRef,
      failureReason: null,
      updatedAt: at,
    }),
    setBilling(scope, m.pkg.id, pkg, at),
    ...insertRows(scope.db, customerPackageCredits, credits),
    ...renewalMoney(scope, m.pkg.locationId, renewal.amount, at),
    eventStatement(
      scope.db,
      scope.workspaceId,
      "membership-renewed",
      render(pkg, [...m.credits, ...credits], now),
    ),
  ];
}

/**
 * The batch of a declined renewal: the try failed (the provider's reason),
 * the membership is past due with no new credits, tried again a day later
 * (under a new key) but never past the next period's start, and
 * `membership-past-due` is told. Guarded like a paid one: a void membership
 * is never made past due.
 */
export function renewalDeclined(
  scope: Scope,
  m: Membership,
  renewal: Pick<RenewalRow, "id" | "attempt" | "period">,
  reason: string,
  now: number,
): Statement[] {
  const at = Date.now();
  const pkg: CustomerPackageRow = {
    ...m.pkg,
    pastDue: true,
    nextChargeAt: m.pkg.renewing ? retryAt(m.pkg, renewal.period, now) : null,
    updatedAt: at,
  };
  return [
    renewalStillPending(scope, renewal),
    membershipStillBilled(scope, m.pkg),
    answerRenewal(scope, renewal.id, {
      status: "failed",
      providerRef: null,
      failureReason: reason,
      updatedAt: at,
    }),
    setBilling(scope, m.pkg.id, { pastDue: true, nextChargeAt: pkg.nextChargeAt }, at),
    eventStatement(scope.db, scope.workspaceId, "membership-past-due", {
      ...render(pkg, m.credits, now),
      failure_reason: reason,
      period: renewal.period,
    }),
  ];
}

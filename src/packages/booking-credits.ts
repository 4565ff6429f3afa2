import { isGuardFailure } from "../db/constraints";
import { run } from "../db/reads";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { PlannedBooking } from "../calendar/planning/planner";
import { ApiError } from "../platform/errors";
import { probe } from "../platform/failpoints";
import { type Problem, problem } from "../platform/rules/problems";
import { type PackageRecord, customerPackagesRead } from "./queries/customer-packages";
import { reserveCredits } from "./queries/credit-uses";
import { type AllocationRefusal, allocateCredits, packageStatus } from "./rules";

/** A booking body's `customer_package_uuid`: item `item`'s service at `service` (0, 0 for a single booking). */
export type CreditSubject = { is: "customer_package"; item: number; service: number };

/** A booked service a request asks a package to pay for. */
export interface CreditRequest {
  item: number;
  service: number;
  packageId: string;
  serviceId: string;
  /** The booking's start: a credit must not expire before it. */
  start: number;
  /** Seats: one credit each. */
  count: number;
}

/** The policy a credit use copies from its service when booked (later changes never touch it). */
export interface UsePolicy {
  paymentPolicy: {
    late_cancel?: { window_minutes: number } | undefined;
    no_show_fee?: unknown;
  } | null;
}

/** A planned booked service a credit pays for, with the ids of its rows. */
export interface CreditedService {
  item: number;
  service: number;
  bookingId: string;
  bookingServiceId: string;
  serviceId: string;
}

const keyOf = (item: number, service: number) => `${item}.${service}`;

const REFUSED: Record<Exclude<AllocationRefusal, "not_covered">, string> = {
  expired: "its credits for this service expire before the booking starts",
  used_up: "it has no credit left for this service",
};

/**
 * What the packages named by a booking request can pay for, decided from
 * the packages as read in the booking's own read batch: 422 problems (an
 * unknown package, another customer's, a service no credit names), a 409
 * `package_unavailable` (void, past due, expired or used up), and the credit
 * each covered service takes. The write re-checks every count in its batch.
 */
export function bookingCredits(
  asks: readonly CreditRequest[],
  read: { packages: readonly PackageRecord[]; customerId: string | null; now: number },
) {
  const byId = new Map(read.packages.map((r) => [r.pkg.id, r]));
  const problems: Problem<CreditSubject>[] = [];
  const about = (a: CreditRequest): CreditSubject => ({
    is: "customer_package",
    item: a.item,
    service: a.service,
  });
  for (const ask of asks) {
    const record = byId.get(ask.packageId);
    // One answer for both: a body must not learn whether another customer's package exists.
    if (!record || read.customerId === null || record.pkg.customerId !== read.customerId)
      problems.push(problem(about(ask), "Unknown customer package, or not this customer's."));
    else if (!record.credits.some((c) => c.serviceIds.includes(ask.serviceId)))
      problems.push(problem(about(ask), "No credit of the package pays for this service."));
  }
  const uses = new Map<string, { packageId: string; creditId: string; count: number }>();
  let refusal: ApiError | null = null;
  if (problems.length === 0) {
    for (const record of byId.values()) {
      const mine = asks.filter((a) => a.packageId === record.pkg.id);
      const status = packageStatus(record.pkg, record.credits, read.now);
      if (status !== "active") {
        refusal ??= unavailable(`The customer package is ${status.replace("_", " ")}.`);
        continue;
      }
      const allocation = allocateCredits(
        record.credits,
        mine.map((a) => ({
          key: keyOf(a.item, a.service),
          serviceId: a.serviceId,
          start: a.start,
          count: a.count,
        })),
      );
      if (!allocation.ok) {
        const why = allocation.refusals[0]?.why ?? "used_up";
        refusal ??= unavailable(
          `The customer package cannot pay: ${why === "not_covered" ? "no credit names the service" : REFUSED[why]}.`,
        );
        continue;
      }
      for (const use of allocation.uses) uses.set(use.key, { packageId: record.pkg.id, ...use });
    }
  }
  return {
    problems,
    refusal,
    /** Whether a credit pays for this service of this item (its price is 0, it asks no payment). */
    covers: (item: number, service: number) => uses.has(keyOf(item, service)),
    /**
     * The planned bookings with each credit-paid service at price 0 (its
     * original price stays the catalogue's, so the booking shows it as the
     * discount), and those services. `itemOf`: the request item a booking is.
     */
    paid: (
      planned: readonly PlannedBooking[],
      itemOf: (b: PlannedBooking, k: number) => number,
    ) => {
      const credited: CreditedService[] = [];
      const priced = planned.map((b, k) => {
        const item = itemOf(b, k);
        return {
          ...b,
          services: b.services.map((s) => {
            if (!uses.has(keyOf(item, s.position))) return s;
            credited.push({
              item,
              service: s.position,
              bookingId: b.id,
              bookingServiceId: s.id,
              serviceId: s.serviceId,
            });
            return { ...s, price: 0 };
          }),
        };
      });
      return { planned: priced, credited };
    },
    /** The holds of the credits, for the booking's write batch. */
    statements: (
      scope: Scope,
      credited: readonly CreditedService[],
      policies: ReadonlyMap<string, UsePolicy>,
      at: number,
    ): Statement[] =>
      reserveCredits(
        scope,
        credited.flatMap((s) => {
          const use = uses.get(keyOf(s.item, s.service));
          if (!use) return [];
          const policy = policies.get(s.serviceId)?.paymentPolicy ?? null;
          return [
            {
              // One use per booked service: its id is the booked service's, so a replanned write keeps it.
              id: s.bookingServiceId,
              bookingId: s.bookingId,
              bookingServiceId: s.bookingServiceId,
              customerPackageId: use.packageId,
              creditId: use.creditId,
              count: use.count,
              lateCancelMinutes: policy?.late_cancel?.window_minutes ?? null,
              noShowUses: Boolean(policy?.no_show_fee),
            },
          ];
        }),
        at,
      ),
    /**
     * A write refused by a guard or the credits' CHECK: if the packages as
     * they are now cannot pay (another booking took the credit, the package
     * was voided), 409 `package_unavailable`; any other refusal as it was.
     */
    explain: async (scope: Scope, error: unknown): Promise<unknown> => {
      if (uses.size === 0) return error;
      const checkFailed = isCreditCheck(error);
      if (!checkFailed && !isGuardFailure(error)) return error;
      const packages = await run(scope.db, customerPackagesRead(scope, [...byId.keys()]));
      const again = bookingCredits(asks, { ...read, packages, now: Date.now() });
      // Lets a race test prove the write's guard refused, not the read.
      probe("packages.credit.refused_in_write");
      if (again.refusal) return again.refusal;
      return checkFailed ? unavailable("The customer package has no credit left.") : error;
    },
  };
}

export type BookingCredits = ReturnType<typeof bookingCredits>;

const unavailable = (message: string) => new ApiError("package_unavailable", message);

const isCreditCheck = (error: unknown): boolean => {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("customer_package_credits_range")) return true;
  }
  return false;
};

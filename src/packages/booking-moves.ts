import { ApiError } from "../platform/errors";
import type { UseEnding } from "./booking-end";
import type { HeldCredits } from "./queries/booking-holds";
import { expiredBy, replacedUse } from "./rules/booking-end";

const creditsOf = (held: HeldCredits) => held.packages.flatMap((p) => p.credits);

/**
 * Refuses moving a booking to `start` when a credit it holds will have
 * expired by then (409 `package_unavailable`): the credit pays only for a
 * booking that starts before it expires, so the move would leave it unpaid.
 */
export function assertHeldAt(held: HeldCredits, bookingId: string, start: number) {
  const uses = held.uses.filter((u) => u.bookingId === bookingId);
  if (expiredBy(uses, creditsOf(held), start).length > 0)
    throw new ApiError(
      "package_unavailable",
      "A package credit paying for this booking expires before the new start; nothing was moved.",
    );
}

/**
 * What replacing the service of a booked service does with the credit that
 * pays for it: kept when the same credit names the new service (it stays
 * paid, price 0), else given back in the change's batch (the new service is
 * priced as the catalogue has it). Nothing when no credit pays for it.
 */
export function replacedServiceCredit(
  held: HeldCredits,
  bookingServiceId: string,
  newServiceId: string,
): { paidByCredit: boolean; creditEnds: UseEnding[] } {
  const use = held.uses.find(
    (u) => u.bookingServiceId === bookingServiceId && u.state === "reserved",
  );
  const credit = use && creditsOf(held).find((c) => c.id === use.creditId);
  if (!use || !credit) return { paidByCredit: false, creditEnds: [] };
  return replacedUse(credit, newServiceId) === "kept"
    ? { paidByCredit: true, creditEnds: [] }
    : { paidByCredit: false, creditEnds: [{ use, end: "returned" }] };
}

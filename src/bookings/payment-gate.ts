import { type PricedService, visitPaymentTerms } from "../catalogue/rules/service-payment";
import type { PlanItem } from "../calendar/planning/planner";
import { ApiError } from "../platform/errors";

/**
 * A customer (publishable key, offer link) may not book straight away what
 * takes money online: such a visit is paid through a checkout of its
 * reservation. A reservation's terms were fixed when it was made, so they
 * decide for a booking that uses one (a policy set since then asks nothing
 * of it, and one removed since then still does); without a reservation the
 * services' policies in force now do. Staff bookings are never asked.
 */
export function refuseUnpaid(
  visit: {
    items: PlanItem[];
    services: ReadonlyMap<string, PricedService>;
    /** The reservation the booking uses, as read in its batch (undefined: none). */
    reservation: { payment: unknown } | undefined;
    currency: string;
  },
  ask: { customer: boolean; settled: boolean },
) {
  if (!ask.customer || ask.settled) return;
  const needs = visit.reservation
    ? visit.reservation.payment !== null
    : visitPaymentTerms(
        visit.items.flatMap((item) =>
          item.services.flatMap((s) => {
            const service = visit.services.get(s.serviceId);
            return service ? [{ service, quantity: s.quantity ?? 1 }] : [];
          }),
        ),
        visit.currency,
      ) !== null;
  if (needs) {
    throw new ApiError(
      "payment_required",
      visit.reservation
        ? "This reservation takes a payment online: book it through POST /reservations/{uuid}/checkout."
        : "These services take a payment online: hold the time with POST /reservations, then pay through POST /reservations/{uuid}/checkout.",
    );
  }
}

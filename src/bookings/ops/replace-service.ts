import { engineInputs } from "../../calendar/availability/engine-input";
import { availabilityRead } from "../../calendar/queries/availability";
import { bookingRefs } from "../queries/booking-refs";
import { whyNotReplaceable } from "../rules/booking-rules";
import { bufferOf, effectivePrice } from "../../catalogue/rules/service-terms";
import { MINUTE } from "../../platform/rules/duration";
import { bookingOrderInvoice } from "../../pos/rules";
import { ApiError, invalid } from "../../platform/errors";
import { bookedEntry, bookingOwner, unitEntry } from "../../calendar/planning/calendar-entries";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { replacedServiceCredit } from "../../packages/booking-moves";
import { assertPlacementsFit, seatsOf, unitsFor } from "../../calendar/planning/placement";
import { LACKS_RESOURCE, lacksResource } from "../../calendar/planning/prepare";

/** What replacing a service can be wrong about: the service asked for. */
export type ReplaceServiceSubject = { is: "service" };
const SERVICE: ReplaceServiceSubject = { is: "service" };

/** Swaps the service of a simple booking: price, duration and tax re-derived, the end moves. */
export function replaceBookingService(deps: BookingDeps, bookingId: string, serviceId: string) {
  return changeBooking(deps, bookingId, {
    notifies: true,
    op: "replace_service",
    // The new service with the booking's (one) staffer, around its start.
    reads: (scope) => {
      const its = bookingRefs(scope, bookingId);
      return availabilityRead(scope, {
        locationId: its.locationId,
        serviceIds: [serviceId],
        stafferIds: its.stafferIds,
        fromDate: its.startDate(-1),
        toDate: its.startDate(3),
      });
    },
    plan: (loaded, { now, reads: availability, taken, ids, staff, creditHolds }) => {
      const reason = whyNotReplaceable({
        ...loaded.booking,
        serviceCount: loaded.services.length,
        amountPaid: loaded.order.accountPaidAmount + loaded.order.voucherPaidAmount,
        orderStatus: loaded.order.status,
        posGoodsOnOrder: loaded.posGoodsOnOrder,
      });
      const current = loaded.services[0];
      if (reason || !current)
        throw new ApiError("booking_not_replaceable", reason ?? "The booking has no service.");

      const service = availability.services[0];
      if (!service) throw invalid(SERVICE, "Unknown service.");
      if (!availability.offeredAt.has(serviceId))
        throw invalid(SERVICE, "The service is not offered at this location.");
      const inputs = engineInputs(availability, {
        ignoreEntries: new Set(loaded.entries.map((e) => e.id)),
        extraBusy: taken,
        holdsYield: staff,
      });
      if (!inputs?.performersOf(serviceId).some((p) => p.id === current.stafferId)) {
        throw invalid(SERVICE, "The booking's staffer cannot perform this service here.");
      }
      if (lacksResource(inputs, serviceId)) throw invalid(SERVICE, LACKS_RESOURCE);
      const buffer = bufferOf(service);
      const placement = {
        serviceId,
        stafferId: current.stafferId,
        start: current.reservedOn,
        durationMin: service.duration,
        bufferMin: buffer,
        seats: current.quantity,
      };
      assertPlacementsFit(inputs, [placement], now, SERVICE);
      const units = unitsFor(inputs, [placement], ids)[0] ?? [];
      // A group service taken in: the booking's seat joins (or opens) its session.
      const [session] = seatsOf(inputs, [placement]);

      // A credit paying for it stays when it names the new service too, else it goes back.
      const credit = replacedServiceCredit(creditHolds, current.id, serviceId);
      const columns = {
        serviceId,
        name: service.name,
        duration: service.duration,
        originalDuration: service.duration,
        buffer,
        reservedUntil: current.reservedOn + service.duration * MINUTE,
        price: credit.paidByCredit ? 0 : effectivePrice(service),
        originalPrice: service.price,
        taxName: service.taxName,
        taxRateBp: service.taxRateBp,
        resourceIds: units.map((u) => u.resourceId),
      };
      const replaced = { ...current, ...columns };
      const invoice = bookingOrderInvoice({
        order: loaded.order,
        orderServices: loaded.orderServices.map((s) => (s.id === current.id ? replaced : s)),
      });
      const owner = bookingOwner(loaded.booking);
      return {
        event: "booking-service-replaced",
        // Its reminders name the staffer and services: written again, at the same time.
        messages: { reminders: "move" },
        booking: { endAt: replaced.reservedUntil },
        services: [{ id: current.id, ...columns }],
        creditEnds: credit.creditEnds,
        order: {
          subtotal: invoice.subtotal,
          taxTotal: invoice.total - invoice.subtotal,
          total: invoice.total,
        },
        busy: [
          bookedEntry(owner, { ...replaced, session }, ids("staffer")),
          ...units.map((u) => unitEntry(owner, { ...replaced, session }, u)),
        ],
      };
    },
  });
}

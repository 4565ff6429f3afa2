import { eq } from "drizzle-orm";
import { engineInputs } from "../../availability/engine-input";
import type { Availability } from "../../db/queries/availability";
import { availabilityAlongside } from "../alongside";
import { bookingServices, bookings, calendarEntries, orders } from "../../db/schema";
import { insertRows } from "../../db/bounded";
import { whereIn } from "../../db/scope";
import { whyNotReplaceable } from "../../domain/booking-rules";
import { bufferOf, effectivePrice } from "../../domain/catalogue/service-terms";
import { ApiError, fieldError } from "../../lib/errors";
import { bookingOrderInvoice } from "../../domain/pricing";
import { changeBooking } from "../change";
import type { BookingDeps } from "../deps";
import { bookedEntry, movingClaims, unitEntry } from "../calendar-entries";
import { assertPlacementsFit, unitsFor } from "../placement";
import { LACKS_RESOURCE, lacksResource } from "../prepare";
import { MINUTE } from "../../domain/duration";

/** Swaps the service of a simple booking: price, duration and tax re-derived, the end moves. */
export function replaceBookingService(deps: BookingDeps, bookingId: string, serviceId: string) {
  return changeBooking<Availability>(
    deps,
    bookingId,
    "replace_service",
    async (loaded, { scope, now, alongside: availability, taken, ids }) => {
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
      if (!service) throw fieldError("service_uuid", "Unknown service.");
      if (!availability.offeredAt.has(serviceId))
        throw fieldError("service_uuid", "The service is not offered at this location.");
      const inputs = engineInputs(availability, {
        ignoreEntries: new Set(loaded.entries.map((e) => e.id)),
        extraBusy: taken,
        holdsYield: deps.staff,
      });
      if (!inputs?.performersOf(serviceId).some((p) => p.id === current.stafferId)) {
        throw fieldError("service_uuid", "The booking's staffer cannot perform this service here.");
      }
      if (lacksResource(inputs, serviceId)) throw fieldError("service_uuid", LACKS_RESOURCE);
      const buffer = bufferOf(service);
      const placement = {
        serviceId,
        stafferId: current.stafferId,
        start: current.reservedOn,
        durationMin: service.duration,
        bufferMin: buffer,
      };
      assertPlacementsFit(inputs, [placement], now, "service_uuid");
      const units = unitsFor(inputs, [placement], ids)[0] ?? [];

      const replaced = {
        ...current,
        serviceId,
        name: service.name,
        duration: service.duration,
        originalDuration: service.duration,
        buffer,
        reservedUntil: current.reservedOn + service.duration * MINUTE,
        price: effectivePrice(service),
        originalPrice: service.price,
        taxName: service.taxName,
        taxRateBp: service.taxRateBp,
        resourceIds: units.map((u) => u.resourceId),
      };
      const orderServices = loaded.orderServices.map((s) => (s.id === current.id ? replaced : s));
      const invoice = bookingOrderInvoice({ order: loaded.order, orderServices });
      const order = {
        ...loaded.order,
        subtotal: invoice.subtotal,
        taxTotal: invoice.total - invoice.subtotal,
        total: invoice.total,
      };
      const booking = { ...loaded.booking, endAt: replaced.reservedUntil, updatedAt: now };
      const at = { workspaceId: scope.workspaceId, locationId: booking.locationId, bookingId };
      const entries = [
        bookedEntry(at, replaced, ids("staffer")),
        ...units.map((u) => unitEntry(at, replaced, u)),
      ];
      return {
        view: { ...loaded, booking, order, services: [replaced], orderServices },
        event: "booking-service-replaced",
        touchesOrder: true,
        claims: movingClaims(loaded.entries, entries),
        statements: [
          scope.db
            .update(bookingServices)
            .set({
              serviceId,
              name: replaced.name,
              duration: replaced.duration,
              originalDuration: replaced.originalDuration,
              buffer,
              reservedUntil: replaced.reservedUntil,
              price: replaced.price,
              originalPrice: replaced.originalPrice,
              taxName: replaced.taxName,
              taxRateBp: replaced.taxRateBp,
              resourceIds: replaced.resourceIds,
            })
            .where(whereIn(scope, bookingServices, eq(bookingServices.id, current.id))),
          scope.db
            .update(bookings)
            .set({ endAt: booking.endAt, updatedAt: now })
            .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
          scope.db
            .update(orders)
            .set({ subtotal: order.subtotal, taxTotal: order.taxTotal, total: order.total })
            .where(whereIn(scope, orders, eq(orders.id, order.id))),
          scope.db
            .delete(calendarEntries)
            .where(whereIn(scope, calendarEntries, eq(calendarEntries.sourceId, bookingId))),
          ...insertRows(scope.db, calendarEntries, entries),
        ],
      };
    },
    {},
    // The new service with the booking's (one) staffer, around its start.
    availabilityAlongside(bookingId, (its) => ({
      locationId: its.locationId,
      serviceIds: [serviceId],
      stafferIds: its.stafferIds,
      fromDate: its.startDate(-1),
      toDate: its.startDate(3),
    })),
  );
}

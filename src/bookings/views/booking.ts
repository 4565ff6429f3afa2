import type { BookingRecord } from "../queries/bookings";
import { durationObject, MINUTE } from "../../platform/rules/duration";
import { formatMoney } from "../../platform/rules/money";
import { policyVerdict } from "../rules/policy";
import { bookingOrderInvoice } from "../../pos/rules";
import { toIso } from "../../platform/clock";
import type { Booking } from "./booking-schema";
import { renderBookingPayment } from "./booking-payment";
import { PUBLIC_BASE } from "../../http/api-paths";
import { icalLinkToken } from "../ical-token";
import type { RenderContext } from "../../http/deps";

export type { BookingRecord };

type BookingRow = BookingRecord["booking"];

export function icalLink(ctx: RenderContext, booking: BookingRow) {
  const token = icalLinkToken(booking.workspaceId, booking.icalToken);
  return `${ctx.origin}${PUBLIC_BASE}/bookings/${booking.id}/ical?token=${token}`;
}

/** `now` decides the policy's is_cancelable and is_changeable. */
export function renderBooking(
  record: BookingRecord,
  ctx: RenderContext,
  now = Date.now(),
): Booking {
  const { booking, policy } = record;
  const money = (amount: number) => formatMoney(amount, ctx.currency, ctx.locale);
  const invoice = bookingOrderInvoice(record);
  const verdict = policyVerdict(policy, booking, now);
  return {
    uuid: booking.id,
    location_uuid: booking.locationId,
    customer_uuid: booking.customerId,
    series_uuid: booking.seriesId ?? null,
    start_time: toIso(booking.startAt),
    end_time: toIso(booking.endAt),
    timezone: booking.timezone,
    duration: durationObject(Math.round((booking.endAt - booking.startAt) / MINUTE)),
    quantity: booking.quantity,
    slots_count: booking.slotsCount,
    cancel_reason: booking.cancelReason,
    canceled_by: booking.canceledBy,
    is_canceled: booking.isCanceled,
    is_completed: booking.isCompleted,
    public_notes: booking.publicNotes,
    currency: ctx.currency,
    status: { uuid: record.status.id, name: record.status.name, type: record.status.type },
    policy: {
      policy_text: policy.policyText,
      is_cancelable: verdict.isCancelable,
      cancellation_offset: policy.cancellationOffset,
      cancellation_text: policy.cancellationText,
      is_changeable: verdict.isChangeable,
      change_offset: policy.changeOffset,
      change_text: policy.changeText,
    },
    links: [
      { type: "ical", link: icalLink(ctx, booking) },
      // No video-meeting integration is configured for any workspace yet.
      { type: "google_meet", link: "" },
      { type: "zoom", link: "" },
      { type: "microsoft_teams", link: "" },
    ],
    order: {
      uuid: record.order.id,
      tax: invoice.taxes,
      subtotal: invoice.subtotal,
      subtotal_formatted: money(invoice.subtotal),
      amount_paid: invoice.amount_paid,
      amount_paid_formatted: money(invoice.amount_paid),
      total: invoice.total,
      total_formatted: money(invoice.total),
    },
    payment: renderBookingPayment(record.payment, ctx.currency, booking.startAt),
    ordered_services: [...record.services]
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        uuid: s.id,
        service_uuid: s.serviceId,
        staffer_uuid: s.stafferId,
        timezone: booking.timezone,
        reserved_on: toIso(s.reservedOn),
        reserved_until: toIso(s.reservedUntil),
        quantity: s.quantity,
        name: s.name,
        currency: ctx.currency,
        price: s.price,
        price_formatted: money(s.price),
        discount: s.originalPrice - s.price,
        discount_formatted: money(s.originalPrice - s.price),
        original_price: s.originalPrice,
        original_price_formatted: money(s.originalPrice),
        tax_name: s.taxName,
        tax_value: s.taxRateBp === null ? null : s.taxRateBp / 100,
        duration: durationObject(s.duration),
        original_duration: durationObject(s.originalDuration),
        resource_uuids: s.resourceIds,
      })),
  };
}

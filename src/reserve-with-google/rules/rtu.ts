import {
  dateOfDayNumber,
  dayNumberOf,
  instantToLocalDate,
  localDateTimeToInstant,
} from "../../calendar/rules/zone";
import { googleStatus, type BookingState } from "./status";

/*
 * Real-time updates to Google (Maps Booking API v1alpha, REST): the requests as data, built
 * from plain values. Unlike the booking server's snake_case, this API's JSON is lowerCamel,
 * with RFC 3339 timestamps and "<seconds>s" durations.
 */

/** Which booking fields a notification changes: a cancel or no-show, or a move. */
export type UpdateMask = "status" | "startTime,duration";

/** An RFC 3339 UTC timestamp, whole seconds (Google's Timestamp in JSON). */
export const rfc3339 = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** A Duration in JSON: whole seconds followed by "s". */
export const durationText = (seconds: number) => `${Math.round(seconds)}s`;

/** One outgoing call, relative to the configured base (RWG_NOTIFY_URL). */
export interface RtuRequest {
  method: "PATCH" | "POST";
  /** Path and query string, from the base's root (`/v1alpha/...`). */
  path: string;
  body: Record<string, unknown>;
}

/** A booking Google made, as it is now (its state as the booking server's answers read it). */
export interface NotifiedBooking extends BookingState {
  bookingId: string;
  merchantId: string;
  serviceId: string;
  startMs: number;
  endMs: number;
}

/**
 * notification.partners.bookings.patch: `name`, `merchantId` and `serviceId` always, with the
 * fields the mask names (the time and length are sent with a status too: Google ignores what
 * the mask leaves out, and the full state reads better in its logs).
 */
export function bookingNotification(
  partnerId: string,
  booking: NotifiedBooking,
  mask: UpdateMask,
): RtuRequest {
  const name = `partners/${partnerId}/bookings/${booking.bookingId}`;
  return {
    method: "PATCH",
    path: `/v1alpha/notification/${encodePath(name)}?updateMask=${encodeURIComponent(mask)}`,
    body: {
      name,
      merchantId: booking.merchantId,
      serviceId: booking.serviceId,
      startTime: rfc3339(booking.startMs),
      duration: durationText((booking.endMs - booking.startMs) / 1000),
      // The booking server's own rule: Google reads the same status from both APIs.
      status: googleStatus(booking),
    },
  };
}

/** One open start as the feed and openSlots count it. */
export interface RtuSlot {
  serviceId: string;
  startSec: number;
  durationSec: number;
  spotsTotal: number;
  spotsOpen: number;
}

/**
 * inventory.partners.availability.replace for one location (merchant) and a window: one
 * entry per service, each replacing every slot Google holds that starts in the window with
 * the open ones (a service with none left in the window is sent with an empty list, which
 * clears it). int64 spot counts as strings (proto3 JSON).
 */
export function availabilityReplace(
  partnerId: string,
  window: { merchantId: string; fromMs: number; toMs: number },
  serviceIds: readonly string[],
  slots: readonly RtuSlot[],
): RtuRequest {
  return {
    method: "POST",
    path: `/v1alpha/inventory/partners/${encodeURIComponent(partnerId)}/availability:replace`,
    body: {
      extendedServiceAvailability: serviceIds.map((serviceId) => ({
        merchantId: window.merchantId,
        serviceId,
        startTimeRestrict: rfc3339(window.fromMs),
        endTimeRestrict: rfc3339(window.toMs),
        availability: slots
          .filter((s) => s.serviceId === serviceId)
          .map((s) => ({
            startTime: rfc3339(s.startSec * 1000),
            duration: durationText(s.durationSec),
            spotsTotal: String(s.spotsTotal),
            spotsOpen: String(s.spotsOpen),
          })),
      })),
    },
  };
}

/** An instant window, [fromMs, toMs). */
export interface Window {
  fromMs: number;
  toMs: number;
}

/**
 * The local days (in the location's zone) that the instants fall on, as windows from local
 * midnight to the next, adjacent days joined: what a booking change touched (its old and new
 * start and end) and what an availability replace covers.
 */
export function localDays(instants: readonly number[], timeZone: string): Window[] {
  const days = [...new Set(instants.map((ms) => dayNumberOf(instantToLocalDate(ms, timeZone))))];
  days.sort((a, b) => a - b);
  const midnight = (day: number) => localDateTimeToInstant(dateOfDayNumber(day), "00:00", timeZone);
  const out: Window[] = [];
  let runStart: number | null = null;
  for (let i = 0; i < days.length; i++) {
    const day = days[i] as number;
    runStart ??= day;
    if (days[i + 1] !== day + 1) {
      out.push({ fromMs: midnight(runStart), toMs: midnight(day + 1) });
      runStart = null;
    }
  }
  return out;
}

/** Percent-encodes each segment of a resource name, keeping its slashes. */
const encodePath = (name: string) => name.split("/").map(encodeURIComponent).join("/");

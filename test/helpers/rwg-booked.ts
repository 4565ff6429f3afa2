import { expect } from "vitest";
import { type GoogleClient, googleUser, sec } from "./rwg";
import type { Salon } from "./salon";

/** Seconds a haircut (45 min) lasts, as Google's slots write it. */
export const CUT_SEC = "2700";

/** A haircut slot of the salon at an ISO instant (`staff` = a staffer's uuid, else anyone). */
export const cutSlot = (salon: Salon, iso: string, staff?: string) => ({
  merchant_id: salon.location.uuid,
  service_id: salon.cut.uuid,
  start_sec: sec(iso),
  duration_sec: CUT_SEC,
  ...(staff ? { resources: { staff_id: staff } } : {}),
});

/** A booking Google makes (CreateBooking with a new token): its booking_id and Booking message. */
export async function bookThroughGoogle(
  salon: Salon & { google: GoogleClient },
  iso: string,
  opts: { staff?: string; user?: ReturnType<typeof googleUser> } = {},
) {
  const res = await salon.google("CreateBooking", {
    slot: cutSlot(salon, iso, opts.staff),
    user_information: opts.user ?? googleUser(),
    idempotency_token: crypto.randomUUID(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.booking, JSON.stringify(res.body)).toBeDefined();
  return { id: res.body.booking.booking_id as string, booking: res.body.booking };
}

/** The public time-slots search's haircut starts ("09:00"…) on one local day, with their quantity. */
export async function cutStarts(salon: Salon, day: string, staff?: string) {
  const q = new URLSearchParams({
    service_uuid: salon.cut.uuid,
    range_start: day,
    range_end: day,
    ...(staff ? { staffer_uuid: staff } : {}),
  });
  const res = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots?${q}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const slots = (res.body.dates?.[0]?.slots ?? []) as { start: string; quantity: number }[];
  return new Map(slots.map((s) => [s.start, s.quantity]));
}

/** Staff's (secret key) cancel of a booking, at the desk. */
export const deskCancel = (salon: Salon, id: string, body: Record<string, unknown> = {}) =>
  salon.ws.api(`/bookings/${id}/status/cancel`, { method: "PUT", body });

/** The uuid of the salon's `i`th staffer. */
export function stafferOf(salon: Salon, i: number): string {
  const staffer = salon.staffers[i];
  if (!staffer) throw new Error(`the salon has no staffer ${i}`);
  return staffer.uuid;
}

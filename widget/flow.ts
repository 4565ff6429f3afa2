import { ApiFailure, type Client, isUnavailable } from "./api";
import type { MessageKey } from "./i18n/messages";
import { addDays, dayRange, localToUtc } from "./time";
import type {
  Booking,
  BookingForm,
  CartSlots,
  Page,
  Reservation,
  Service,
  SlotChoice,
  Staffer,
  TimeSlots,
} from "./types";

/** The API calls of each step, in the shapes of the public API v2. */

export const ALL_OPTIONAL: BookingForm = {
  customer_email: "optional",
  customer_last_name: "optional",
  customer_middle_name: "optional",
  booking_comment: "optional",
};

/** Lists are paged (100 at most a page): read them all, up to a sane bound for a widget. */
const MAX_PAGES = 10;

async function readAll<T>(api: Client, path: string): Promise<T[]> {
  const first = await api.get<Page<T>>(`${path}?per_page=100&page=1`);
  const last = Math.min(first.meta.last_page, MAX_PAGES);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, last - 1) }, (_, i) =>
      api.get<Page<T>>(`${path}?per_page=100&page=${i + 2}`),
    ),
  );
  return [first, ...rest].flatMap((p) => p.data);
}

export async function loadCatalogue(api: Client, location: string) {
  const [services, staffers] = await Promise.all([
    readAll<Service>(api, "/services"),
    readAll<Staffer>(api, "/staffers"),
  ]);
  return {
    services: services.filter(
      (s) => s.live && s.live_in_widget && s.locations.some((l) => l.uuid === location),
    ),
    // A publishable key is shown only the staff active in the widget.
    staffers: staffers.filter((s) => s.locations.some((l) => l.uuid === location)),
  };
}

/** The workspace's booking form; without that endpoint every extra field is optional. */
export async function loadBookingForm(api: Client): Promise<BookingForm> {
  try {
    return { ...ALL_OPTIONAL, ...(await api.get<Partial<BookingForm>>("/booking-form")) };
  } catch (e) {
    if (isUnavailable(e)) return ALL_OPTIONAL;
    throw e;
  }
}

/** Staff who perform every chosen service. */
export function performersOfAll(staffers: Staffer[], services: Service[]): Staffer[] {
  return staffers.filter((st) => services.every((s) => s.staffers.some((x) => x.uuid === st.uuid)));
}

export interface Selection {
  location: string;
  services: string[];
  /** "" = anyone. */
  staffer: string;
  zone: string;
  /** Party size per group service (capacity > 1); absent: 1. */
  seats?: Record<string, number>;
}

const seatsOf = (sel: Selection, service: string) => sel.seats?.[service] ?? 1;

/** The API's `quantity` for a service: sent only for a party of more than one. */
const quantityOf = (sel: Selection, service: string) =>
  seatsOf(sel, service) > 1 ? { quantity: seatsOf(sel, service) } : {};

const servicesOf = (sel: Selection) =>
  sel.services.map((service_uuid) => ({
    service_uuid,
    ...(sel.staffer ? { staffer_uuid: sel.staffer } : {}),
    ...quantityOf(sel, service_uuid),
  }));

/**
 * Free starts: one service lists every start of the chosen day; several services
 * (a cart) list the first start on which all fit, for each of the next 14 days.
 */
export async function searchSlots(api: Client, sel: Selection, date: string) {
  if (sel.services.length === 1) {
    const { start, end } = dayRange(date);
    const q = new URLSearchParams({
      service_uuid: sel.services[0] ?? "",
      range_start: start,
      range_end: end,
      timezone: sel.zone,
    });
    if (sel.staffer) q.set("staffer_uuid", sel.staffer);
    const res = await api.get<TimeSlots>(`/locations/${sel.location}/time-slots?${q}`);
    // A group service's slot shows the seats left there: a party needs that many.
    const party = seatsOf(sel, sel.services[0] ?? "");
    return res.dates
      .filter((d) => d.date === date)
      .flatMap((d) =>
        d.slots
          .filter((s) => (s.quantity ?? 1) >= party)
          .map((s): SlotChoice => ({ start: localToUtc(d.date, s.start) })),
      );
  }
  const res = await api.post<CartSlots>(`/locations/${sel.location}/time-slots/cart`, {
    services: servicesOf(sel),
    range_start: dayRange(date).start,
    range_end: dayRange(addDays(date, 13)).end,
    timezone: sel.zone,
  });
  return (res.data[0]?.dates ?? []).map((d): SlotChoice => ({
    start: localToUtc(d.date, d.slot.start),
  }));
}

/** Holds the slot; null when the API offers no reservations (the booking then goes direct). */
export async function hold(
  api: Client,
  sel: Selection,
  slot: SlotChoice,
): Promise<Reservation | null> {
  try {
    return await api.post<Reservation>("/reservations", {
      location_uuid: sel.location,
      items: [{ datetime_start: slot.start, services: servicesOf(sel) }],
    });
  } catch (e) {
    // No hold is no disaster: the booking then goes direct (and answers for itself: the API
    // bounds a publishable booking as it bounds a hold, see bookingRefusal). The API refuses a
    // hold past a visitor's bounds (too many services or hours: 422; too many live holds from
    // this address: 429 too_many_holds).
    if (isUnavailable(e) || isHoldRefused(e)) return null;
    throw e;
  }
}

const isHoldRefused = (e: unknown) =>
  e instanceof ApiFailure && (e.status === 422 || e.code === "too_many_holds");

/**
 * What to tell the visitor (a message's key) when the API refuses the booking itself for a
 * visitor's bounds, or null for any other failure. A booking without a hold
 * (after a refused one) meets the same bounds as the hold did, so it never
 * gets round them: too many services or hours in one booking (422 on the
 * services, not on a form field), or too many bookings from this address in a
 * day (429 too_many_bookings). Neither is worth a retry.
 */
export function bookingRefusal(e: unknown): MessageKey | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.code === "too_many_bookings") return "error.too_many_bookings";
  const onServices = (field: string) => field === "service_uuid" || field.startsWith("items.");
  const fields = Object.keys(e.fields);
  if (e.status === 422 && fields.length > 0 && fields.every(onServices)) {
    return "error.choice_too_big";
  }
  return null;
}

export async function release(api: Client, reservation: Reservation | null, leaving = false) {
  if (!reservation) return;
  // Best effort: an unreleased hold expires by itself.
  await api.del(`/reservations/${reservation.uuid}`, leaving).catch(() => undefined);
}

export interface Details {
  first_name: string;
  last_name: string;
  middle_name: string;
  phone: string;
  email: string;
  comment: string;
}

export type Customer = Details & { phone_e164: string };

/** The customer's part of a booking (and of a checkout, which books later with it). */
export function customerFields(sel: Selection, customer: Customer, form: BookingForm) {
  const shown = (field: keyof BookingForm, value: string) =>
    form[field] !== "hidden" && value.trim() ? value.trim() : undefined;
  return {
    customer_first_name: customer.first_name.trim(),
    customer_last_name: shown("customer_last_name", customer.last_name),
    customer_middle_name: shown("customer_middle_name", customer.middle_name),
    customer_email: shown("customer_email", customer.email),
    booking_comment: shown("booking_comment", customer.comment),
    customer_phone: customer.phone_e164,
    timezone: sel.zone,
    customer_browser_tz: sel.zone,
    customer_browser_language: navigator.language.slice(0, 35),
    source: "widget",
  };
}

export async function book(
  api: Client,
  sel: Selection,
  slot: SlotChoice,
  reservation: Reservation | null,
  customer: Customer,
  form: BookingForm,
): Promise<Booking[]> {
  const common = {
    location_uuid: sel.location,
    ...customerFields(sel, customer, form),
    ...(reservation ? { reservation_uuid: reservation.uuid } : {}),
  };
  if (sel.services.length === 1) {
    const booking = await api.post<Booking>("/bookings", {
      ...common,
      service_uuid: sel.services[0],
      ...quantityOf(sel, sel.services[0] ?? ""),
      reserved_on: slot.start,
      ...(sel.staffer ? { staffer_uuid: sel.staffer } : {}),
    });
    return [booking];
  }
  const cart = await api.post<{ bookings: Booking[] }>("/bookings/cart", {
    ...common,
    items: [{ datetime_start: slot.start, services: servicesOf(sel) }],
  });
  return cart.bookings;
}

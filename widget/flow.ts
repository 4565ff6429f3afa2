import { ApiFailure, type Client, isUnavailable } from "./api";
import type { MessageKey } from "./i18n/messages";
import {
  addMonths,
  firstFreeDay,
  firstOfMonth,
  freeDaysOfCart,
  freeDaysOfSlots,
  lastOfMonth,
  monthOf,
} from "./month";
import { dayRange } from "./time";
import type {
  Booking,
  BookingForm,
  CartSlots,
  Page,
  PublicLocation,
  PublicWorkspace,
  Reservation,
  SalonFace,
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

/**
 * The salon's face (brand, then the location's address and phone). Best effort: an older
 * API without these answers, or one failing, leaves the widget plain rather than broken.
 */
export async function loadFace(api: Client, location: string): Promise<SalonFace | null> {
  const [workspace, locations] = await Promise.all([
    api.get<PublicWorkspace>("/workspace").catch(() => null),
    readAll<PublicLocation>(api, "/locations").catch(() => []),
  ]);
  return faceOf(workspace, locations.find((l) => l.uuid === location) ?? null);
}

export function faceOf(
  workspace: PublicWorkspace | null,
  location: PublicLocation | null,
): SalonFace | null {
  const brand = workspace?.brand ?? null;
  const name = brand?.name || location?.name || "";
  if (!name) return null;
  return {
    name,
    logo_url: brand?.logo_url ?? null,
    accent_color: brand?.accent_color ?? null,
    address: location?.address ?? null,
    phone: location?.phone ?? null,
    phone_display: location?.phone_display ?? location?.phone ?? null,
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
  /** The customer package paying for every service (the widget then offers only those). */
  package?: string;
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
 * The free starts of each day of a month (`YYYY-MM`, on the customer's clock), in ONE
 * request: one service lists every start of every day; several services (a cart) the first
 * start of each day on which all fit, one after the other. Days before `from` are not asked.
 */
export async function searchMonth(
  api: Client,
  sel: Selection,
  month: string,
  from: string,
): Promise<Map<string, SlotChoice[]>> {
  const first = firstOfMonth(month) < from ? from : firstOfMonth(month);
  const range_start = dayRange(first).start;
  const range_end = dayRange(lastOfMonth(month)).end;
  if (range_end < range_start) return new Map();
  if (sel.services.length === 1) {
    const q = new URLSearchParams({
      service_uuid: sel.services[0] ?? "",
      range_start,
      range_end,
      timezone: sel.zone,
    });
    if (sel.staffer) q.set("staffer_uuid", sel.staffer);
    const res = await api.get<TimeSlots>(`/locations/${sel.location}/time-slots?${q}`);
    // A group service's slot shows the seats left there: a party needs that many.
    return freeDaysOfSlots(res, seatsOf(sel, sel.services[0] ?? ""));
  }
  const res = await api.post<CartSlots>(`/locations/${sel.location}/time-slots/cart`, {
    services: servicesOf(sel),
    range_start,
    range_end,
    timezone: sel.zone,
  });
  return freeDaysOfCart(res);
}

/** How many months ahead the date step looks for a first free day before it gives up. */
export const LOOK_AHEAD_MONTHS = 3;

/**
 * The last month a customer may page to (today's + 12): a salon's book rarely reaches
 * further, and a held › key must not walk the API's calendar without end.
 */
export const LAST_MONTH_AHEAD = 12;

/**
 * The first month (from `today`'s, at most LOOK_AHEAD_MONTHS of them) with a free day:
 * that month's answer and its first free day; with none free, the first month's answer
 * and a null day.
 */
export async function openMonth(
  api: Client,
  sel: Selection,
  today: string,
  found: (month: string, days: Map<string, SlotChoice[]>) => void = () => undefined,
): Promise<{ month: string; days: Map<string, SlotChoice[]>; day: string | null }> {
  let opened: { month: string; days: Map<string, SlotChoice[]> } | null = null;
  for (let i = 0; i < LOOK_AHEAD_MONTHS; i++) {
    const month = addMonths(monthOf(today), i);
    const days = await searchMonth(api, sel, month, today);
    found(month, days);
    opened ??= { month, days };
    const day = firstFreeDay(days, today);
    if (day) return { month, days, day };
  }
  return { ...(opened ?? { month: monthOf(today), days: new Map() }), day: null };
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
  const paidBy = sel.package ? { customer_package_uuid: sel.package } : {};
  if (sel.services.length === 1) {
    const booking = await api.post<Booking>("/bookings", {
      ...common,
      service_uuid: sel.services[0],
      ...quantityOf(sel, sel.services[0] ?? ""),
      ...paidBy,
      reserved_on: slot.start,
      ...(sel.staffer ? { staffer_uuid: sel.staffer } : {}),
    });
    return [booking];
  }
  const cart = await api.post<{ bookings: Booking[] }>("/bookings/cart", {
    ...common,
    items: [
      { datetime_start: slot.start, services: servicesOf(sel).map((s) => ({ ...s, ...paidBy })) },
    ],
  });
  return cart.bookings;
}

import { insertRows } from "../db/bounded";
import type { Database } from "../db/client";
import { newOrderRow, orderInsert, type OrderRow, ordersInsert } from "../pos/queries/orders";
import { eventsInsert, eventStatement } from "../webhooks/queries/outbox";
import { saveBookingCustomer } from "../catalogue/queries/customers";
import {
  bookingServices,
  type bookingStatuses,
  bookings,
  calendarEntries,
  series,
} from "../db/schema";
import type { Statement } from "../db/statement";
import { normaliseLocale } from "../messages/rules/locale";
import type { LocationPolicy } from "./rules/policy";
import { bookingOrderInvoice } from "../pos/rules";
import { type BookingRecord, renderBooking } from "./views/booking";
import type { RenderContext } from "../http/deps";
import { renderCustomer } from "../catalogue/views/customer";
import { entryRows } from "../calendar/entry-rows";
import { plannedEntries } from "../calendar/planning/calendar-entries";
import { bookingEnd, bookingStart, type PlannedBooking } from "../calendar/planning/planner";

export interface CustomerInput {
  id: string;
  isNew: boolean;
  /**
   * Whether this booking may refresh an existing customer's names and
   * e-mail. Only staff's may: anyone can type any phone into the widget.
   */
  refreshesStored: boolean;
  phone: string;
  firstName: string;
  lastName: string | null;
  middleName: string | null;
  email: string | null;
}

export interface BookingDetails {
  workspaceId: string;
  locationId: string;
  timezone: string;
  status: typeof bookingStatuses.$inferSelect;
  publicNotes: string;
  source: string;
  customerBrowserTz: string | null;
  customerBrowserLanguage: string | null;
  bookingCallback: boolean;
  googleMeetGuestEmails: string | null;
  /** The location's cancel and change policy, shown on every booking. */
  policy: LocationPolicy;
  /** A publishable key's visitor, whose bookings are capped (null for staff's). */
  visitor: string | null;
  /**
   * A publishable key's booking carries its own contact (the request's first
   * name and e-mail) for all its messages; null for staff's (the stored customer).
   */
  contact: { firstName: string; email: string | null } | null;
}

const randomToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

/** How new bookings are grouped: a series' bookings name it, and each has its own order. */
export interface WriteShape {
  /** The series the bookings make, written with them (after their customer). */
  series?: typeof series.$inferInsert;
  /** `one`: one order for all (a cart); `each`: an order per booking (each visit paid on its day). */
  orders?: "one" | "each";
}

/**
 * Rows, outbox events and rendered views for new bookings on new orders (one
 * for all, or one each). Everything goes into one D1 batch: the bookings
 * exist with their orders, customer, busy time and events, or none of it does.
 */
export function bookingWrite(
  db: Database,
  planned: PlannedBooking[],
  customer: CustomerInput,
  details: BookingDetails,
  ctx: RenderContext,
  shape: WriteShape = {},
) {
  const now = Date.now();
  const { workspaceId } = details;
  const newOrder = () =>
    newOrderRow({
      workspaceId,
      kind: "booking",
      locationId: details.locationId,
      stafferId: null,
      customerId: customer.id,
      createdAt: now,
    });
  const shared = shape.orders === "each" ? null : newOrder();
  const orderOf = new Map(planned.map((b) => [b.id, shared ?? newOrder()]));
  const orderRows = [...new Set(orderOf.values())];
  const theOrder = (bookingId: string) => {
    const order = orderOf.get(bookingId);
    if (!order) throw new Error(`no order for booking ${bookingId}`);
    return order;
  };
  const serviceRows = planned.flatMap((b) =>
    b.services.map((s) => ({
      id: s.id,
      workspaceId,
      bookingId: b.id,
      serviceId: s.serviceId,
      stafferId: s.stafferId,
      position: s.position,
      name: s.name,
      reservedOn: s.start,
      reservedUntil: s.end,
      duration: s.duration,
      originalDuration: s.duration,
      buffer: s.buffer,
      quantity: s.quantity,
      price: s.price,
      originalPrice: s.originalPrice,
      taxName: s.taxName,
      taxRateBp: s.taxRateBp,
      resourceIds: s.units.map((u) => u.resourceId),
    })),
  );
  const servicesOfOrder = (order: OrderRow) =>
    serviceRows.filter((s) => orderOf.get(s.bookingId) === order);
  for (const order of orderRows) {
    const invoice = bookingOrderInvoice({ order, orderServices: servicesOfOrder(order) });
    Object.assign(order, {
      subtotal: invoice.subtotal,
      taxTotal: invoice.total - invoice.subtotal,
      total: invoice.total,
    });
  }

  const bookingRows = planned.map((b) => ({
    id: b.id,
    workspaceId,
    locationId: details.locationId,
    customerId: customer.id,
    orderId: theOrder(b.id).id,
    statusId: details.status.id,
    startAt: bookingStart(b),
    endAt: bookingEnd(b),
    timezone: details.timezone,
    // Seats: a booking's group service's (its services have 1 each otherwise).
    quantity: Math.max(...b.services.map((s) => s.quantity)),
    slotsCount: 1,
    isCanceled: false,
    isCompleted: false,
    cancelReason: null,
    canceledBy: null,
    canceledAt: null,
    cancelChargesFee: false,
    completedAt: null,
    completedBy: null,
    completedPaymentMethod: null,
    publicNotes: details.publicNotes,
    internalNotes: null,
    source: details.source,
    customerBrowserTz: details.customerBrowserTz,
    customerBrowserLanguage: details.customerBrowserLanguage,
    bookingCallback: details.bookingCallback,
    googleMeetGuestEmails: details.googleMeetGuestEmails,
    notifyOnReschedule: null,
    icalToken: randomToken(),
    createdAt: now,
    updatedAt: now,
    version: 0,
    visitor: details.visitor,
    seriesId: shape.series?.id ?? null,
    ownContact: details.contact !== null,
    contactFirstName: details.contact?.firstName ?? null,
    contactEmail: details.contact?.email ?? null,
  }));

  const records: BookingRecord[] = bookingRows.map((booking) => {
    const order = theOrder(booking.id);
    return {
      booking,
      services: serviceRows.filter((s) => s.bookingId === booking.id),
      order,
      orderServices: servicesOfOrder(order),
      status: details.status,
      policy: details.policy,
    };
  });
  const rendered = records.map((v) => renderBooking(v, ctx));

  const customerRow = {
    id: customer.id,
    workspaceId,
    firstName: customer.firstName,
    lastName: customer.lastName,
    middleName: customer.middleName,
    phone: customer.phone,
    email: customer.email,
    emailLower: customer.email?.toLowerCase() ?? null,
    // A new customer speaks the language of the browser they booked from (messages use it).
    locale: normaliseLocale(details.customerBrowserLanguage),
    notifyEmail: true,
    notifySms: true,
    createdAt: now,
  };
  const statements: Statement[] = [
    // Found by phone: staff's booking refreshes names and e-mail, a customer's leaves them.
    saveBookingCustomer({ db, workspaceId }, customerRow, customer.refreshesStored),
    ...insertRows(db, series, shape.series ? [shape.series] : []),
    ...(shared ? orderInsert(db, shared) : ordersInsert(db, orderRows)),
    ...insertRows(db, bookings, bookingRows),
    ...insertRows(db, bookingServices, serviceRows),
    // The same entries the claims hold: the booked-service id doubles as its staffer's entry id.
    ...insertRows(
      db,
      calendarEntries,
      entryRows({ workspaceId, locationId: details.locationId }, plannedEntries(planned)),
    ),
  ];
  if (customer.isNew) {
    statements.push(
      eventStatement(db, workspaceId, "customer-created", renderCustomer(customerRow)),
    );
  }
  statements.push(...eventsInsert(db, workspaceId, "booking-created", rendered));
  return { statements, rendered, records, orders: orderRows };
}

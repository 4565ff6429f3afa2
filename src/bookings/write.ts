import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { bumpOrderNumber, orderNumberSql } from "../db/queries/orders";
import { eventStatement } from "../db/queries/outbox";
import {
  bookingServices,
  type bookingStatuses,
  bookings,
  calendarEntries,
  customers,
  orders,
} from "../db/schema";
import {
  type BookingView,
  bookingOrderInvoice,
  type RenderContext,
  renderBooking,
} from "../routes/public/bookings/render";
import { bookingEnd, bookingStart, type PlannedBooking } from "./plan";

export interface CustomerInput {
  id: string;
  isNew: boolean;
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
}

const randomToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

/**
 * Rows, outbox events and rendered views for new bookings on one new order.
 * Everything goes into one D1 batch: the bookings exist with their order,
 * customer, busy time and events, or none of it does.
 */
export function bookingWrite(
  db: Database,
  planned: PlannedBooking[],
  customer: CustomerInput,
  details: BookingDetails,
  ctx: RenderContext,
) {
  const now = Date.now();
  const { workspaceId } = details;
  const order = {
    id: crypto.randomUUID(),
    workspaceId,
    kind: "booking" as const,
    locationId: details.locationId,
    stafferId: null,
    customerId: customer.id,
    status: "open" as const,
    // Placeholder for rendering; the row takes the bumped sequence value inside the batch.
    orderNumber: 0,
    isReverted: false,
    discountAmount: 0,
    discountMode: null,
    discountPercent: null,
    promocode: null,
    promocodeDiscountAmount: null,
    subtotal: 0,
    taxTotal: 0,
    total: 0,
    accountPaidAmount: 0,
    voucherPaidAmount: 0,
    accountId: null,
    paymentMethod: null,
    comment: null,
    description: null,
    invoiceNote: null,
    createdAt: now,
    paidAt: null,
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
      quantity: 1,
      price: s.price,
      originalPrice: s.originalPrice,
      taxName: s.taxName,
      taxRateBp: s.taxRateBp,
    })),
  );
  const invoice = bookingOrderInvoice({ order, orderServices: serviceRows });
  Object.assign(order, {
    subtotal: invoice.subtotal,
    taxTotal: invoice.total - invoice.subtotal,
    total: invoice.total,
  });

  const bookingRows = planned.map((b) => ({
    id: b.id,
    workspaceId,
    locationId: details.locationId,
    customerId: customer.id,
    orderId: order.id,
    statusId: details.status.id,
    startAt: bookingStart(b),
    endAt: bookingEnd(b),
    timezone: details.timezone,
    quantity: 1,
    slotsCount: 1,
    isCanceled: false,
    isCompleted: false,
    cancelReason: null,
    canceledBy: null,
    canceledAt: null,
    completedAt: null,
    completedBy: null,
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
  }));

  const views: BookingView[] = bookingRows.map((booking) => ({
    booking,
    services: serviceRows.filter((s) => s.bookingId === booking.id),
    order,
    orderServices: serviceRows,
    status: details.status,
  }));
  const rendered = views.map((v) => renderBooking(v, ctx));

  const statements: BatchItem<"sqlite">[] = [
    // Found by phone: names and e-mail are refreshed from the latest booking.
    db
      .insert(customers)
      .values({
        id: customer.id,
        workspaceId,
        firstName: customer.firstName,
        lastName: customer.lastName,
        middleName: customer.middleName,
        phone: customer.phone,
        email: customer.email,
        emailLower: customer.email?.toLowerCase() ?? null,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [customers.workspaceId, customers.phone],
        set: {
          firstName: customer.firstName,
          lastName: sql`coalesce(${customer.lastName}, ${customers.lastName})`,
          middleName: sql`coalesce(${customer.middleName}, ${customers.middleName})`,
          email: sql`coalesce(${customer.email}, ${customers.email})`,
          emailLower: sql`coalesce(${customer.email?.toLowerCase() ?? null}, ${customers.emailLower})`,
        },
      }),
    bumpOrderNumber(db, workspaceId),
    db.insert(orders).values({ ...order, orderNumber: orderNumberSql(workspaceId) }),
    db.insert(bookings).values(bookingRows),
    db.insert(bookingServices).values(serviceRows),
    db.insert(calendarEntries).values(
      serviceRows.map((s) => ({
        id: s.id,
        workspaceId,
        stafferId: s.stafferId,
        locationId: details.locationId,
        kind: "booking" as const,
        sourceId: s.bookingId,
        startsAt: s.reservedOn,
        endsAt: s.reservedUntil + s.buffer * 60_000,
      })),
    ),
  ];
  if (customer.isNew) {
    statements.push(
      eventStatement(db, workspaceId, "customer-created", {
        uuid: customer.id,
        first_name: customer.firstName,
        last_name: customer.lastName,
        middle_name: customer.middleName,
        phone: customer.phone,
        email: customer.email,
      }),
    );
  }
  for (const booking of rendered)
    statements.push(eventStatement(db, workspaceId, "booking-created", booking));
  return { statements, rendered };
}

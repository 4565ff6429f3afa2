import { type AnySQLiteColumn, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText, StringListSchema } from "./json-text";
import { services } from "./catalogue";
import { customers } from "./customers";
import { locations } from "./locations";
import { orders } from "./orders";
import { series } from "./series";
import { bookingStatuses } from "./settings";
import { staffers } from "./staff";
import { workspaces } from "./workspaces";

export const bookings = sqliteTable(
  "bookings",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    /** The order this booking is billed on; a cart shares one order between its bookings. */
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    statusId: text("status_id")
      .notNull()
      .references(() => bookingStatuses.id),
    /** First service start and last service end (buffers excluded), epoch ms. */
    startAt: integer("start_at").notNull(),
    endAt: integer("end_at").notNull(),
    /** Zone the client asked times to be shown in; the location's when none. */
    timezone: text("timezone").notNull(),
    quantity: integer("quantity").notNull().default(1),
    slotsCount: integer("slots_count").notNull().default(1),
    isCanceled: integer("is_canceled", { mode: "boolean" }).notNull().default(false),
    isCompleted: integer("is_completed", { mode: "boolean" }).notNull().default(false),
    cancelReason: text("cancel_reason"),
    canceledBy: text("canceled_by"),
    canceledAt: integer("canceled_at"),
    /** Staff cancelled asking for the fee (`charge_fee`): a late-cancel or no-show fee is charged. */
    cancelChargesFee: integer("cancel_charges_fee", { mode: "boolean" }).notNull().default(false),
    completedAt: integer("completed_at"),
    completedBy: text("completed_by"),
    /** The method its complete was paid with (the revenue report counts the completion there). */
    completedPaymentMethod: text("completed_payment_method"),
    publicNotes: text("public_notes").notNull().default(""),
    internalNotes: text("internal_notes"),
    source: text("source").notNull().default("unknown"),
    customerBrowserTz: text("customer_browser_tz"),
    customerBrowserLanguage: text("customer_browser_language"),
    bookingCallback: integer("booking_callback", { mode: "boolean" }).notNull().default(false),
    googleMeetGuestEmails: text("google_meet_guest_emails"),
    /** The last reschedule's wish to notify the customer. */
    notifyOnReschedule: integer("notify_on_reschedule", { mode: "boolean" }),
    /** Secret in the public .ics link, so a customer's calendar app can fetch it without an API key. */
    icalToken: text("ical_token").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Bumped by every write; each write commits only at the version it read (compare-and-set). */
    version: integer("version").notNull().default(0),
    /**
     * Made with a publishable key: the visitor (key and client address, hashed, as a
     * reservation's holder), whose bookings of the last day are capped. Null for staff's.
     */
    visitor: text("visitor"),
    /** The recurring series this booking is an occurrence of; null outside a series. */
    seriesId: text("series_id").references((): AnySQLiteColumn => series.id),
    /**
     * Made with a publishable key: the booking carries its own contact, and every message of
     * it goes to the first name and e-mail its own request gave (no e-mail: none by e-mail),
     * never to the customer's stored ones. False for staff's: they follow the stored customer.
     */
    ownContact: integer("own_contact", { mode: "boolean" }).notNull().default(false),
    contactFirstName: text("contact_first_name"),
    contactEmail: text("contact_email"),
  },
  (t) => [
    // The list's default order: newest reservation first.
    index("bookings_workspace_start_idx").on(t.workspaceId, t.startAt),
    index("bookings_workspace_created_idx").on(t.workspaceId, t.createdAt),
    index("bookings_customer_idx").on(t.customerId),
    index("bookings_order_idx").on(t.orderId),
    // The cap counts a visitor's bookings of the last day in the write that adds one.
    index("bookings_visitor_idx").on(t.workspaceId, t.visitor, t.createdAt),
    index("bookings_series_idx").on(t.seriesId, t.startAt),
  ],
);

/** The reference's ordered_services: one row per service of a booking, with its staffer and time. */
export const bookingServices = sqliteTable(
  "booking_services",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    reservedOn: integer("reserved_on").notNull(),
    reservedUntil: integer("reserved_until").notNull(),
    duration: integer("duration").notNull(),
    originalDuration: integer("original_duration").notNull(),
    /** Buffer after the service, part of the staffer's busy time but not of the booking. */
    buffer: integer("buffer").notNull().default(0),
    quantity: integer("quantity").notNull().default(1),
    price: integer("price").notNull(),
    originalPrice: integer("original_price").notNull(),
    taxName: text("tax_name"),
    taxRateBp: integer("tax_rate_bp"),
    /** The resources the service took, one unit of each (their units are in calendar_entries). */
    resourceIds: jsonText("resource_ids", "booking_services", StringListSchema)
      .notNull()
      .default([]),
  },
  (t) => [
    index("booking_services_booking_idx").on(t.bookingId),
    index("booking_services_staffer_idx").on(t.stafferId, t.reservedOn),
    // GET /sessions: one service's bookings in a time range.
    index("booking_services_service_idx").on(t.serviceId, t.reservedOn),
  ],
);

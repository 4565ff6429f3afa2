import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { locations } from "./locations";
import { workspaces } from "./workspaces";

export const WAITLIST_STATUSES = ["waiting", "offered", "booked", "expired", "canceled"] as const;

/**
 * A customer waiting for time at a location: the services they want (an item
 * as a cart books it), a window of local dates and, within each day, local
 * times. While `offered`, a reservation holds the earliest fitting start for
 * them (`offer_*`); booking with it makes the entry `booked`.
 */
export const waitlistEntries = sqliteTable(
  "waitlist_entries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** `[{ service_uuid, staffer_uuid? }]` in the order they run (JSON). */
    services: text("services").notNull(),
    /** E.164, as customers are found by it. */
    phone: text("phone").notNull(),
    firstName: text("first_name").notNull(),
    email: text("email"),
    /** The customer's language (from the request's browser language), for the offer's message. */
    locale: text("locale"),
    fromDate: text("from_date").notNull(),
    toDate: text("to_date").notNull(),
    /** `[{ start: "HH:MM", end: "HH:MM" }]` local times a visit must lie within; null: any time (JSON). */
    times: text("times"),
    /**
     * The window as instants: the start of `from_date` and the end of `to_date` in the
     * location's zone. Freed time outside every waiting entry's window is not even recorded.
     */
    windowStart: integer("window_start").notNull(),
    windowEnd: integer("window_end").notNull(),
    status: text("status", { enum: WAITLIST_STATUSES }).notNull(),
    offerReservationId: text("offer_reservation_id"),
    offerStart: integer("offer_start"),
    /** The end of the offered visit (its last service's end). */
    offerEnd: integer("offer_end"),
    offerExpiresAt: integer("offer_expires_at"),
    /**
     * SHA-256 (hex) of the offer link's token: the link books the offer without a key. A new
     * offer gets a new token; the old link then opens nothing.
     */
    offerTokenHash: text("offer_token_hash"),
    /** Offers this entry let lapse or declined, `[{ start, end }]` (JSON): not offered again. */
    passed: text("passed").notNull().default("[]"),
    bookingId: text("booking_id"),
    /** The API key that made it: a publishable key may delete only the entries it made. */
    apiKeyId: text("api_key_id").notNull(),
    /** A publishable key's visitor (key and client address, hashed): its entries are capped. */
    visitor: text("visitor"),
    /**
     * The client address (hashed, as customer messages count it) of a publishable key's entry:
     * its offers' messages count against that visitor's daily bound.
     */
    messageVisitor: text("message_visitor"),
    /** Offers this entry let lapse; past `WAITLIST.maxLapses` it expires instead of waiting again. */
    lapses: integer("lapses").notNull().default(0),
    version: integer("version").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // Staff list a workspace's entries newest first, by status.
    index("waitlist_entries_workspace_idx").on(t.workspaceId, t.status, t.createdAt),
    // By when a window ends: the triggers' "is anyone here waiting for time overlapping this?"
    // (window_end after the time's start), the expiry of windows over, and the next to end.
    index("waitlist_entries_location_idx").on(t.workspaceId, t.locationId, t.status, t.windowEnd),
    // A phone's cap (and a visitor's) counts its open entries in the write that adds one.
    index("waitlist_entries_phone_idx").on(t.workspaceId, t.phone, t.status),
    index("waitlist_entries_visitor_idx").on(t.workspaceId, t.visitor, t.status),
    index("waitlist_entries_offer_idx").on(t.offerReservationId),
    uniqueIndex("waitlist_entries_offer_token_idx").on(t.offerTokenHash),
  ],
);

/**
 * The matching index: one row per (entry, local date of its window, service).
 * Freed time on a date finds the entries that want that date and a service the
 * freed calendar can serve by key lookups, however many entries wait.
 */
export const waitlistDays = sqliteTable(
  "waitlist_days",
  {
    workspaceId: text("workspace_id").notNull(),
    locationId: text("location_id").notNull(),
    day: text("day").notNull(),
    serviceId: text("service_id").notNull(),
    entryId: text("entry_id").notNull(),
    /** The entry's `created_at`: candidates come out oldest first straight from the index. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.workspaceId, t.locationId, t.day, t.serviceId, t.createdAt, t.entryId],
    }),
    index("waitlist_days_entry_idx").on(t.entryId),
  ],
);

/**
 * Time that became free at a location where someone waits, written by
 * triggers on `calendar_entries` (and by a reservation for its expiry,
 * `due_at` then in the future). The location's waitlist desk reads what is
 * due, offers it, and deletes the rows.
 */
export const waitlistFreed = sqliteTable(
  "waitlist_freed",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    locationId: text("location_id").notNull(),
    stafferId: text("staffer_id"),
    resourceId: text("resource_id"),
    /** A new entry's own window: only that entry is matched against it (others saw it free before). */
    entryId: text("entry_id"),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    dueAt: integer("due_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("waitlist_freed_location_idx").on(t.workspaceId, t.locationId, t.dueAt),
    // After a write: the locations whose time it freed, found by what it recorded.
    index("waitlist_freed_created_idx").on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Offers made to entries a publishable key joined: one row per offer, kept
 * for as long as it counts against the joining visitor's and the workspace's
 * daily bounds (`PUBLIC_OFFERS`), then pruned. An entry deleted and joined
 * again does not take its offers with it.
 */
export const waitlistOffers = sqliteTable(
  "waitlist_offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id").notNull(),
    entryId: text("entry_id").notNull(),
    /** The joining visitor (key and client address, hashed), as the entry records it. */
    visitor: text("visitor").notNull(),
    createdAt: integer("created_at").notNull(),
    /** When it stops counting (and may be pruned). */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("waitlist_offers_workspace_idx").on(t.workspaceId, t.createdAt),
    index("waitlist_offers_visitor_idx").on(t.workspaceId, t.visitor, t.createdAt),
    index("waitlist_offers_expires_idx").on(t.expiresAt),
  ],
);

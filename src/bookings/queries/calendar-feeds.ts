import { z } from "zod";
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { read, readTogether } from "../../db/reads";
import { parseJsonColumn } from "../../db/json-column";
import {
  blockedSpots,
  bookingServices,
  bookings,
  calendarFeeds,
  customers,
  locations,
  staffers,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

/**
 * Gives the staffer a feed with this token hash, replacing the one it had (the old URL stops
 * answering in the same statement). One statement: the row is written only when the workspace
 * has the staffer; false when it has not.
 */
export async function saveFeedToken(
  scope: Scope,
  stafferId: string,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  const { db } = scope;
  const rows = await db
    .insert(calendarFeeds)
    .select(
      db
        .select({
          stafferId: staffers.id,
          workspaceId: staffers.workspaceId,
          tokenHash: sql<string>`${tokenHash}`.as("token_hash"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(staffers)
        .where(whereIn(scope, staffers, eq(staffers.id, stafferId))),
    )
    .onConflictDoUpdate({
      target: calendarFeeds.stafferId,
      set: { tokenHash: sql`excluded.token_hash`, createdAt: sql`excluded.created_at` },
    })
    .returning({ stafferId: calendarFeeds.stafferId });
  return rows.length > 0;
}

/** Bookings and blocked spots of one feed, by the start of the staffer's part. */
export interface FeedWindow {
  /** Inclusive, epoch ms. */
  from: number;
  /** Exclusive, epoch ms. */
  to: number;
  /** At most this many bookings (and as many blocked spots) are read; one more tells there are more. */
  cap: number;
}

/** One booking as the staffer's feed shows it: the staffer's own part of it. */
export interface FeedBookingRow {
  id: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  isCanceled: boolean;
  publicNotes: string;
  customerFirstName: string;
  customerLastName: string | null;
  locationName: string;
  /** The first of the staffer's services' start and the last one's end (buffers excluded). */
  startsAt: number;
  endsAt: number;
  /** The staffer's services' names, in the booking's order. */
  serviceNames: string[];
}

export interface FeedBlockedRow {
  id: string;
  startsAt: number;
  endsAt: number;
  comment: string | null;
  createdAt: number;
  locationName: string;
}

export interface FeedContent {
  staffer: { id: string; workspaceId: string; firstName: string; lastName: string | null };
  bookings: FeedBookingRow[];
  blocked: FeedBlockedRow[];
  /** More bookings or blocked spots start in the window than the cap: the latest are left out. */
  truncated: boolean;
}

const byToken = (tokenHash: string) => eq(calendarFeeds.tokenHash, tokenHash);

/**
 * Everything a feed shows, found by its token's hash: one round trip (three reads in one batch,
 * each joined to the feed's row, so the staffer and workspace come from the token alone and no
 * row of another staffer or workspace can join). Null when no feed has this hash.
 */
/** The feed aggregate of a booking's services: `[position, name]` pairs. */
const ServiceNamesSchema = z.array(z.tuple([z.number(), z.string()]));

export async function loadFeed(
  db: Database,
  tokenHash: string,
  window: FeedWindow,
): Promise<FeedContent | null> {
  const limit = window.cap + 1;
  const owner = read(
    [
      db
        .select({
          id: staffers.id,
          workspaceId: staffers.workspaceId,
          firstName: staffers.firstName,
          lastName: staffers.lastName,
        })
        .from(calendarFeeds)
        .innerJoin(
          staffers,
          and(
            eq(staffers.id, calendarFeeds.stafferId),
            eq(staffers.workspaceId, calendarFeeds.workspaceId),
          ),
        )
        .where(byToken(tokenHash)),
    ],
    ([rows]) => rows[0] ?? null,
  );
  // Grouped by booking: the staffer's services of it (a cart can give others to other staff).
  // Names come as [position, name] pairs, ordered here: SQLite's aggregate order is not defined.
  const booked = read(
    [
      db
        .select({
          id: bookings.id,
          version: bookings.version,
          createdAt: bookings.createdAt,
          updatedAt: bookings.updatedAt,
          isCanceled: bookings.isCanceled,
          publicNotes: bookings.publicNotes,
          customerFirstName: sql<string>`${customers.firstName}`.as("customer_first_name"),
          customerLastName: sql<string | null>`${customers.lastName}`.as("customer_last_name"),
          locationName: sql<string>`${locations.name}`.as("location_name"),
          startsAt: sql<number>`min(${bookingServices.reservedOn})`.as("feed_starts_at"),
          endsAt: sql<number>`max(${bookingServices.reservedUntil})`.as("feed_ends_at"),
          services:
            sql<string>`json_group_array(json_array(${bookingServices.position}, ${bookingServices.name}))`.as(
              "feed_services",
            ),
        })
        .from(calendarFeeds)
        .innerJoin(
          bookingServices,
          and(
            eq(bookingServices.stafferId, calendarFeeds.stafferId),
            eq(bookingServices.workspaceId, calendarFeeds.workspaceId),
          ),
        )
        .innerJoin(
          bookings,
          and(
            eq(bookings.id, bookingServices.bookingId),
            eq(bookings.workspaceId, calendarFeeds.workspaceId),
          ),
        )
        .innerJoin(customers, eq(customers.id, bookings.customerId))
        .innerJoin(locations, eq(locations.id, bookings.locationId))
        .where(
          and(
            byToken(tokenHash),
            gte(bookingServices.reservedOn, window.from),
            lt(bookingServices.reservedOn, window.to),
          ),
        )
        .groupBy(bookings.id)
        .orderBy(sql`feed_starts_at`, asc(bookings.id))
        .limit(limit),
    ],
    ([rows]) =>
      rows.map(({ services, isCanceled, ...row }): FeedBookingRow => {
        const pairs = parseJsonColumn(ServiceNamesSchema, services, {
          column: "booking_services (feed aggregate)",
          id: row.id,
        });
        pairs.sort((a, b) => a[0] - b[0]);
        return { ...row, isCanceled: Boolean(isCanceled), serviceNames: pairs.map((p) => p[1]) };
      }),
  );
  const blocked = read(
    [
      db
        .select({
          id: blockedSpots.id,
          startsAt: blockedSpots.startsAt,
          endsAt: blockedSpots.endsAt,
          comment: blockedSpots.comment,
          createdAt: blockedSpots.createdAt,
          locationName: sql<string>`${locations.name}`.as("location_name"),
        })
        .from(calendarFeeds)
        .innerJoin(
          blockedSpots,
          and(
            eq(blockedSpots.stafferId, calendarFeeds.stafferId),
            eq(blockedSpots.workspaceId, calendarFeeds.workspaceId),
          ),
        )
        .innerJoin(locations, eq(locations.id, blockedSpots.locationId))
        .where(
          and(
            byToken(tokenHash),
            gte(blockedSpots.startsAt, window.from),
            lt(blockedSpots.startsAt, window.to),
          ),
        )
        .orderBy(asc(blockedSpots.startsAt), asc(blockedSpots.id))
        .limit(limit),
    ],
    ([rows]) => rows,
  );
  const found = await readTogether(db, { owner, booked, blocked });
  if (!found.owner) return null;
  const truncated = found.booked.length > window.cap || found.blocked.length > window.cap;
  return {
    staffer: found.owner,
    bookings: found.booked.slice(0, window.cap),
    blocked: found.blocked.slice(0, window.cap),
    truncated,
  };
}

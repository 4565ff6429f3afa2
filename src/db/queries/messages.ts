import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  isNotNull,
  ne,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import { idIn, inSubquery, insertRows } from "../bounded";
import {
  bookings,
  customers,
  locations,
  messages,
  notificationSettings,
  stafferLocations,
  staffers,
} from "../schema";
import { read } from "../reads";
import { type Scope, whereIn } from "../scope";
import type { Statement } from "../statement";
import { listPage } from "./list";

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/**
 * The daily bounds on the messages a customer's write causes (publishable
 * key, manage link): the visitor's (client address) on everything but
 * reminders, and the booking's on the kinds it names (per channel, counting
 * only customer-caused messages, whoever the visitor).
 */
export interface CustomerBounds {
  visitor: {
    /** At most this many of the visitor's messages (reminders aside) in the window ... */
    perVisitor: number;
    windowMs: number;
    /** ... and those past it are written `skipped` with this `error`. */
    error: string;
  };
  booking?: {
    /** At most this many customer-caused messages of `kinds` per booking and channel in the window ... */
    perBooking: number;
    windowMs: number;
    /** ... and those past it are written `skipped` with this `error`. */
    error: string;
    kinds: readonly string[];
  };
}

/**
 * New messages, in as few statements as D1 allows (one JSON insert for a
 * cart's worth). A customer's messages (`visitor` set) other than reminders
 * are each one `INSERT … SELECT` whose status is decided in the batch by
 * counting, at that moment, the visitor's messages of the window and (for the
 * kinds `bounds.booking` names) the booking's customer-caused ones on the same
 * channel. D1 runs one batch at a time, so writes fired at once never pass a
 * bound together, and the counts cost no round trip of their own.
 */
export function insertMessages(
  scope: Scope,
  rows: NewMessage[],
  bounds?: CustomerBounds,
): Statement[] {
  const bounded = bounds ? rows.filter((r) => r.visitor && r.kind !== "booking-reminder") : [];
  return [
    ...insertRows(
      scope.db,
      messages,
      rows.filter((r) => !bounded.includes(r)),
    ),
    ...(bounds ? bounded.map((row) => boundedInsert(scope, row, bounds)) : []),
  ];
}

/** Whether the visitor's counted messages of the window (those not skipped) reach the bound. */
function visitorFull(scope: Scope, row: NewMessage, bound: CustomerBounds["visitor"]): SQL {
  const used = scope.db
    .select({ n: count() })
    .from(messages)
    .where(
      whereIn(
        scope,
        messages,
        eq(messages.visitor, row.visitor ?? ""),
        gt(messages.createdAt, row.createdAt - bound.windowMs),
        ne(messages.kind, "booking-reminder"),
        ne(messages.status, "skipped"),
      ),
    );
  return sql`(${used}) >= ${bound.perVisitor}`;
}

/**
 * Whether the booking's customer-caused messages of the row's kinds on the
 * row's channel in the window (those not skipped) reach the bound; null when
 * the bound does not apply to the row. It must read one booking's messages
 * through `messages_booking_idx`: without statistics SQLite prefers
 * `messages_workspace_created_idx` (workspace and a range of `created_at`,
 * every message of the workspace's day), so the workspace's term is written
 * `+workspace_id`, which no index may serve (EXPLAIN QUERY PLAN, test
 * `message-booking-quota`).
 */
function bookingFull(scope: Scope, row: NewMessage, bound: CustomerBounds["booking"]): SQL | null {
  if (!bound || !row.bookingId || !bound.kinds.includes(row.kind)) return null;
  const used = scope.db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        sql`+${messages.workspaceId} = ${scope.workspaceId}`,
        eq(messages.bookingId, row.bookingId),
        eq(messages.channel, row.channel),
        idIn(messages.kind, bound.kinds),
        isNotNull(messages.visitor),
        gt(messages.createdAt, row.createdAt - bound.windowMs),
        ne(messages.status, "skipped"),
      ),
    );
  return sql`(${used}) >= ${bound.perBooking}`;
}

/**
 * One message of a customer, `skipped` with the first full bound's error
 * (the visitor's, then the booking's); one parameter per column besides the
 * counts', so it stays under D1's 100.
 */
function boundedInsert(scope: Scope, row: NewMessage, bounds: CustomerBounds): Statement {
  const full: [SQL, string][] = [[visitorFull(scope, row, bounds.visitor), bounds.visitor.error]];
  const booking = bookingFull(scope, row, bounds.booking);
  if (booking && bounds.booking) full.push([booking, bounds.booking.error]);
  const decided = (then: (error: string) => SQL, otherwise: unknown) =>
    sql`case ${sql.join(
      full.map(([when, error]) => sql`when ${when} then ${then(error)}`),
      sql` `,
    )} else ${otherwise} end`;
  const cells = Object.entries(getTableColumns(messages)).map(([key, column]) => {
    const given = (row as Record<string, unknown>)[key];
    const value = given === undefined ? (column.default ?? null) : given;
    const driver = value === null ? null : (column.mapToDriverValue(value) as unknown);
    if (key === "status" && row.status === "scheduled")
      return decided(() => sql`'skipped'`, driver);
    if (key === "error" && row.status === "scheduled")
      return decided((error) => sql`${error}`, driver);
    return sql`${driver}`;
  });
  return scope.db.insert(messages).select(sql`select ${sql.join(cells, sql`, `)}`);
}

/** Reminders of the bookings `which` picks that were still to go out: they never will. */
export const cancelRemindersWhere = (scope: Scope, which: SQL): Statement =>
  scope.db
    .update(messages)
    .set({ status: "canceled" })
    .where(
      whereIn(
        scope,
        messages,
        which,
        eq(messages.kind, "booking-reminder"),
        eq(messages.status, "scheduled"),
      ),
    );

/** A canceled booking's reminders that were still to go out: they never will. */
export const cancelScheduledReminders = (scope: Scope, bookingId: string): Statement =>
  cancelRemindersWhere(scope, eq(messages.bookingId, bookingId));

/** A reminder re-timed and re-written for a moved booking (canceled when its new time has passed). */
export const moveReminder = (
  scope: Scope,
  id: string,
  to: Pick<MessageRow, "scheduledFor" | "subject" | "body" | "locale" | "status">,
): Statement =>
  scope.db
    .update(messages)
    .set(to)
    .where(whereIn(scope, messages, eq(messages.id, id), eq(messages.status, "scheduled")));

const selectSettings = (scope: Scope) =>
  scope.db
    .select({ settings: notificationSettings.settings })
    .from(notificationSettings)
    .where(eq(notificationSettings.workspaceId, scope.workspaceId));

/** The workspace's saved settings document (absent: the defaults apply). */
export const settingsRead = (scope: Scope) =>
  read([selectSettings(scope)] as const, ([rows]) => rows[0]?.settings);

/** First names of the staff of a location (given, or as a subquery on the booking). */
export const locationStaffNames = (scope: Scope, locationId: string | SQLWrapper) =>
  scope.db
    .select({ id: staffers.id, firstName: staffers.firstName })
    .from(staffers)
    .where(
      whereIn(
        scope,
        staffers,
        inSubquery(
          staffers.id,
          scope.db
            .select({ id: stafferLocations.stafferId })
            .from(stafferLocations)
            .where(
              typeof locationId === "string"
                ? eq(stafferLocations.locationId, locationId)
                : inSubquery(stafferLocations.locationId, locationId),
            ),
        ),
      ),
    );

/**
 * What a new booking's messages need besides the booking: the settings and
 * the first names of the location's staff (read with the booking's planning).
 */
export const creationMessagesRead = (scope: Scope, locationId: string) =>
  read(
    [selectSettings(scope), locationStaffNames(scope, locationId)] as const,
    ([settings, names]) => ({
      settings: settings[0]?.settings,
      stafferNames: new Map(names.map((s): [string, string] => [s.id, s.firstName])),
    }),
  );

/**
 * What a change's messages need besides the booking, through subqueries on
 * it (no round trip of its own): the settings, its customer, its location's
 * name and zone, the first names of the location's staff, and its reminders still to go out.
 */
export function changeMessagesRead(scope: Scope, bookingId: string) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.id, bookingId));
  const column = (c: SQL) =>
    db
      .select({ id: sql<string>`${c}` })
      .from(bookings)
      .where(own);
  return read(
    [
      selectSettings(scope),
      db
        .select()
        .from(customers)
        .where(
          whereIn(scope, customers, inSubquery(customers.id, column(sql`${bookings.customerId}`))),
        ),
      db
        .select({ name: locations.name, timezone: locations.timezone })
        .from(locations)
        .where(
          whereIn(scope, locations, inSubquery(locations.id, column(sql`${bookings.locationId}`))),
        ),
      // The location's staff, not only the booking's: a change may hand a service to another.
      locationStaffNames(scope, column(sql`${bookings.locationId}`)),
      db
        .select()
        .from(messages)
        .where(
          whereIn(
            scope,
            messages,
            eq(messages.bookingId, bookingId),
            eq(messages.kind, "booking-reminder"),
            eq(messages.status, "scheduled"),
          ),
        ),
    ] as const,
    ([settings, customer, location, names, reminders]) => ({
      settings: settings[0]?.settings,
      customer: customer[0] ?? null,
      location: location[0] ?? null,
      stafferNames: new Map(names.map((s): [string, string] => [s.id, s.firstName])),
      reminders,
    }),
  );
}

export type ChangeMessagesContext = ReturnType<ReturnType<typeof changeMessagesRead>["parse"]>;

/** Saves a workspace's settings document whole. */
export const saveSettings = (scope: Scope, settings: unknown, now: number) =>
  scope.db
    .insert(notificationSettings)
    .values({ workspaceId: scope.workspaceId, settings, updatedAt: now })
    .onConflictDoUpdate({
      target: notificationSettings.workspaceId,
      set: { settings, updatedAt: now },
    });

export async function loadSettings(scope: Scope): Promise<unknown> {
  const rows = await selectSettings(scope);
  return rows[0]?.settings;
}

export interface MessageFilter {
  bookingId?: string | undefined;
  customerId?: string | undefined;
  kind?: string | undefined;
  status?: MessageRow["status"] | undefined;
  channel?: MessageRow["channel"] | undefined;
}

/** A page of the workspace's messages. */
export function listMessages(scope: Scope, page: PageRequest, filter: MessageFilter) {
  const conditions = [
    filter.bookingId === undefined ? undefined : eq(messages.bookingId, filter.bookingId),
    filter.customerId === undefined ? undefined : eq(messages.customerId, filter.customerId),
    filter.kind === undefined ? undefined : eq(messages.kind, filter.kind),
    filter.status === undefined ? undefined : eq(messages.status, filter.status),
    filter.channel === undefined ? undefined : eq(messages.channel, filter.channel),
  ];
  // Oldest first; within one write, in the order they fall due (a confirmation before its reminders).
  return listPage(
    scope.db,
    messages,
    whereIn(scope, messages, ...conditions),
    [
      asc(messages.createdAt),
      asc(messages.scheduledFor),
      asc(messages.kind),
      asc(messages.channel),
      asc(messages.id),
    ],
    page,
  );
}

export async function findMessage(scope: Scope, id: string): Promise<MessageRow | null> {
  const rows = await scope.db
    .select()
    .from(messages)
    .where(and(whereIn(scope, messages, eq(messages.id, id))))
    .orderBy(asc(messages.createdAt));
  return rows[0] ?? null;
}

/** A workspace's messages for these bookings (tests and tools; one JSON parameter). */
export const messagesOfBookings = (scope: Scope, bookingIds: string[]) =>
  scope.db
    .select()
    .from(messages)
    .where(whereIn(scope, messages, idIn(messages.bookingId, bookingIds)));

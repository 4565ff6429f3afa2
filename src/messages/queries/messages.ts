import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  isNotNull,
  lt,
  ne,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { locationAddressColumns } from "../../db/queries/booking-parts";
import type { PageRequest } from "../../platform/pagination";
import { idIn, inSubquery, insertRows } from "../../db/bounded";
import {
  bookings,
  customers,
  events,
  locations,
  messages,
  notificationSettings,
  publicMessageCounts,
  stafferLocations,
  staffers,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { listPage } from "../../db/queries/list";
import { producing } from "../../db/effects";
import type { Effect } from "../../platform/effects";

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/**
 * The daily bounds on the messages a customer's write causes (publishable
 * key, manage or offer link): the visitor's (client address) on everything
 * but reminders, the booking's on the kinds it names (per channel, counting
 * only customer-caused messages, whoever the visitor), and on every such
 * message the recipient's and the workspace's of the UTC day.
 */
export interface CustomerBounds {
  visitor: {
    /** At most this many of the visitor's messages (reminders aside) in the window ... */
    perVisitor: number;
    windowMs: number;
    /** ... and those past it are written `skipped` with this `error` (and `skip_reason`). */
    error: string;
  };
  booking?: {
    /** At most this many customer-caused messages of `kinds` per booking and channel in the window ... */
    perBooking: number;
    windowMs: number;
    /** ... and those past it are written `skipped` with this `error` (and `skip_reason`). */
    error: string;
    kinds: readonly string[];
  };
  recipient: {
    /** At most this many customer-caused messages to one recipient a day ... */
    perRecipient: number;
    /** ... as this spells the recipient (one inbox, however written) ... */
    keyOf: (row: NewMessage) => string;
    /**
     * ... in the UTC day (days since the epoch) the message goes out: a
     * reminder counts in its own day, not in the day its booking was made ...
     */
    dayOf: (row: NewMessage) => number;
    /** ... past it `skipped` with this `skip_reason`. */
    reason: string;
  };
  workspace: {
    /** The day's budget when the workspace saved none ... */
    defaultBudget: number;
    /** ... past it `skipped` with this `skip_reason`, and one event of this type. */
    reason: string;
    event: string;
  };
  /** The UTC day (days since the epoch) the write counts in. */
  day: number;
}

/**
 * New messages, in as few statements as D1 allows (one JSON insert for a
 * cart's worth). A customer's messages (`visitor` set) that are to go out are
 * each one `INSERT … SELECT` whose status is decided in the batch by the
 * counts at that moment (the visitor's messages of the window, the booking's
 * customer-caused ones, the recipient's and the workspace's counters of the
 * day), then one upsert that adds it to the day's counters if it went in
 * `scheduled`; and once per write, the workspace's `quota-reached` event when
 * its budget is used up and none was written that day. D1 runs one batch at a
 * time, so writes fired at once never pass a bound together, and the counts
 * cost no round trip of their own.
 */
export function insertMessages(
  scope: Scope,
  rows: NewMessage[],
  bounds?: CustomerBounds,
  when?: SQL,
): Statement[] {
  const bounded = bounds ? rows.filter((r) => r.visitor && r.status === "scheduled") : [];
  // A condition (e.g. "the payment was still pending") makes each row an INSERT … SELECT … WHERE.
  const plain = (on: Scope, some: NewMessage[]) =>
    when ? some.map((row) => insertWhen(on, row, when)) : plainInserts(on, some);
  if (!bounds || bounded.length === 0) return plain(scope, rows);
  return [
    ...plain(
      scope,
      rows.filter((r) => !bounded.includes(r)),
    ),
    ...bounded.flatMap((row) => [
      boundedInsert(scope, row, bounds, when),
      countSent(scope, row, bounds),
    ]),
    ...budgetReached(scope, bounds),
  ];
}

/** A scheduled message the write inserted: to the queue when due, else to the clock. */
const messageEffect = (row: { workspaceId: string; id: string; scheduledFor: number }): Effect => ({
  kind: "message",
  workspaceId: row.workspaceId,
  messageId: row.id,
  dueAt: row.scheduledFor,
});

/** Rows inserted as they are; those `scheduled` are handed over once the batch committed. */
function plainInserts(scope: Scope, rows: NewMessage[]): Statement[] {
  // Every statement names all of them: they commit in one batch, and the dispatch counts each once.
  const effects = rows
    .filter((r) => r.status === "scheduled")
    .map((r) =>
      messageEffect({ workspaceId: r.workspaceId, id: r.id, scheduledFor: r.scheduledFor }),
    );
  return insertRows(scope.db, messages, rows).map((s) => producing(s, effects));
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

/** The key of the workspace's budget among its day's counters. */
const BUDGET = "";

/** A counter of the day (the recipient's, or the budget's), 0 before its first message. */
const usedOf = (scope: Scope, day: number, recipient: string) =>
  sql`coalesce((select ${publicMessageCounts.used} from ${publicMessageCounts} where ${publicMessageCounts.workspaceId} = ${scope.workspaceId} and ${publicMessageCounts.day} = ${day} and ${publicMessageCounts.recipient} = ${recipient}), 0)`;

/** The workspace's daily budget as its saved settings say, read in the statement that needs it. */
const budgetOf = (scope: Scope, fallback: number) =>
  sql`coalesce((select json_extract(${notificationSettings.settings}, '$.public_message_budget') from ${notificationSettings} where ${notificationSettings.workspaceId} = ${scope.workspaceId}), ${fallback})`;

/**
 * One message of a customer, `skipped` with the first full bound's reason:
 * the visitor's (reminders aside), the booking's, the recipient's, the
 * workspace's budget. One parameter per column besides the counts', so it
 * stays under D1's 100.
 */
function boundedInsert(
  scope: Scope,
  row: NewMessage,
  bounds: CustomerBounds,
  when?: SQL,
): Statement {
  const full: { when: SQL; reason: string; error: string | null }[] = [];
  if (row.kind !== "booking-reminder")
    full.push({
      when: visitorFull(scope, row, bounds.visitor),
      reason: bounds.visitor.error,
      error: bounds.visitor.error,
    });
  const booking = bookingFull(scope, row, bounds.booking);
  if (booking && bounds.booking)
    full.push({ when: booking, reason: bounds.booking.error, error: bounds.booking.error });
  full.push({
    when: sql`${usedOf(scope, bounds.recipient.dayOf(row), bounds.recipient.keyOf(row))} >= ${bounds.recipient.perRecipient}`,
    reason: bounds.recipient.reason,
    error: null,
  });
  full.push({
    when: sql`${usedOf(scope, bounds.day, BUDGET)} >= ${budgetOf(scope, bounds.workspace.defaultBudget)}`,
    reason: bounds.workspace.reason,
    error: null,
  });
  const decided = (then: (f: (typeof full)[number]) => SQL, otherwise: unknown) =>
    sql`case ${sql.join(
      full.map((f) => sql`when ${f.when} then ${then(f)}`),
      sql` `,
    )} else ${otherwise} end`;
  const cells = rowCells(row, (key, driver) => {
    if (key === "status") return decided(() => sql`'skipped'`, driver);
    if (key === "skipReason") return decided((f) => sql`${f.reason}`, driver);
    if (key === "error") return decided((f) => sql`${f.error}`, driver);
    return sql`${driver}`;
  });
  return selectedInsert(scope, cells, when);
}

/** A row's values as the cells of a SELECT, in the table's column order (`cell` may decide one in SQL). */
function rowCells(
  row: NewMessage,
  cell: (key: string, driver: unknown) => SQL = (_, d) => sql`${d}`,
) {
  return Object.entries(getTableColumns(messages)).map(([key, column]) => {
    const given = (row as Record<string, unknown>)[key];
    const value = given === undefined ? (column.default ?? null) : given;
    const driver = value === null ? null : (column.mapToDriverValue(value) as unknown);
    return cell(key, driver);
  });
}

/**
 * `INSERT … SELECT` of one message's cells, only `when` the condition holds;
 * whether it went in (and went in `scheduled`) is decided in the statement:
 * it says so itself.
 */
function selectedInsert(scope: Scope, cells: SQL[], when?: SQL): Statement {
  return producing(
    scope.db
      .insert(messages)
      .select(sql`select ${sql.join(cells, sql`, `)}${when ? sql` where ${when}` : sql``}`)
      .returning({
        id: messages.id,
        workspaceId: messages.workspaceId,
        status: messages.status,
        scheduledFor: messages.scheduledFor,
      }),
    (result) =>
      (Array.isArray(result) ? (result as MessageRow[]) : [])
        .filter((m) => m.status === "scheduled")
        .map(messageEffect),
  );
}

/** A message written only when `when` holds in the batch (no bounds: the salon's own). */
const insertWhen = (scope: Scope, row: NewMessage, when: SQL): Statement =>
  selectedInsert(scope, rowCells(row), when);

/** The day's counters, upserted: a new one starts at what the SELECT gives, a known one is `onConflict`'s. */
const counterKey = [
  publicMessageCounts.workspaceId,
  publicMessageCounts.day,
  publicMessageCounts.recipient,
];

/**
 * Adds a message that went in `scheduled` to its recipient's counter of the
 * day it goes out and to the workspace's budget of the day it was written.
 */
const countSent = (scope: Scope, row: NewMessage, bounds: CustomerBounds): Statement =>
  scope.db
    .insert(publicMessageCounts)
    .select(
      sql`select ${scope.workspaceId}, json_extract(k.value, '$[0]'), json_extract(k.value, '$[1]'), 1, 0
        from json_each(${JSON.stringify([
          [bounds.recipient.dayOf(row), bounds.recipient.keyOf(row)],
          [bounds.day, BUDGET],
        ])}) as k
        where exists (select 1 from ${messages} where ${messages.id} = ${row.id} and ${messages.status} = 'scheduled')`,
    )
    .onConflictDoUpdate({
      target: counterKey,
      set: { used: sql`${publicMessageCounts.used} + 1` },
    });

/**
 * The day's `quota-reached` event, written once: by the write whose
 * messages used the budget up (or the first after it was lowered below what
 * was used), never again that day. Then the day's older counters go.
 */
function budgetReached(scope: Scope, bounds: CustomerBounds): Statement[] {
  const { day } = bounds;
  const used = usedOf(scope, day, BUDGET);
  const budget = budgetOf(scope, bounds.workspace.defaultBudget);
  const reached = sql`${used} >= ${budget}`;
  const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
  const told = sql`exists (select 1 from ${publicMessageCounts}
    where ${publicMessageCounts.workspaceId} = ${scope.workspaceId} and ${publicMessageCounts.day} = ${day}
      and ${publicMessageCounts.recipient} = ${BUDGET} and ${publicMessageCounts.reached} = 1)`;
  const eventId = crypto.randomUUID();
  return [
    // Handed over whether or not its condition wrote it: the dispatch claims only rows that exist.
    producing(
      scope.db.insert(events).select(
        sql`select ${eventId}, ${scope.workspaceId}, ${bounds.workspace.event},
          json_object('quota', 'public_message_budget', 'day', ${date}, 'budget', ${budget}, 'used', ${used}),
          ${Date.now()}, null, null
        where ${reached} and not ${told}`,
      ),
      [{ kind: "event", workspaceId: scope.workspaceId, eventId }],
    ),
    scope.db
      .insert(publicMessageCounts)
      .select(sql`select ${scope.workspaceId}, ${day}, ${BUDGET}, 0, 1 where ${reached}`)
      .onConflictDoUpdate({ target: counterKey, set: { reached: true } }),
    scope.db
      .delete(publicMessageCounts)
      .where(
        and(
          eq(publicMessageCounts.workspaceId, scope.workspaceId),
          lt(publicMessageCounts.day, day - 1),
        ),
      ),
  ];
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

/**
 * A reminder moved earlier may now fall due before its workspace's clock is
 * set to ring: the move says so, and the clock is brought forward after the
 * answer. (Moved later, the wake-up changes nothing: the clock only moves forward.)
 */
export const reminderMoved = (scope: Scope, id: string, at: number): Effect[] => [
  { kind: "message", workspaceId: scope.workspaceId, messageId: id, dueAt: at },
];

/** A reminder re-timed and re-written for a moved booking (canceled when its new time has passed). */
export const moveReminder = (
  scope: Scope,
  id: string,
  to: Pick<MessageRow, "scheduledFor" | "subject" | "body" | "locale" | "status">,
): Statement => {
  const statement = scope.db
    .update(messages)
    .set(to)
    .where(whereIn(scope, messages, eq(messages.id, id), eq(messages.status, "scheduled")));
  return to.status === "scheduled"
    ? producing(statement, reminderMoved(scope, id, to.scheduledFor))
    : statement;
};

/**
 * A reminder moved by a customer's change (a publishable key's, a manage
 * link's) onto another UTC day: counted against the recipient's bound of its
 * new day as a new message would be (past it `skipped`, `recipient_quota`),
 * and added to that day's counter when it stays scheduled. Otherwise a
 * stranger could move bookings made on several days until their reminders
 * all fall on one inbox's day. The day it leaves keeps its count.
 */
export function moveCountedReminder(
  scope: Scope,
  reminder: Pick<MessageRow, "id" | "channel" | "to">,
  to: Pick<MessageRow, "scheduledFor" | "subject" | "body" | "locale">,
  bounds: Pick<CustomerBounds, "recipient">,
): Statement[] {
  const key = bounds.recipient.keyOf({ ...reminder, ...to } as NewMessage);
  const day = bounds.recipient.dayOf({ ...reminder, ...to } as NewMessage);
  const full = sql`${usedOf(scope, day, key)} >= ${bounds.recipient.perRecipient}`;
  const moved = whereIn(
    scope,
    messages,
    eq(messages.id, reminder.id),
    eq(messages.status, "scheduled"),
  );
  return [
    // Skipped past the bound, the wake-up finds nothing due: harmless.
    producing(
      scope.db
        .update(messages)
        .set({
          ...to,
          status: sql`case when ${full} then 'skipped' else 'scheduled' end`,
          skipReason: sql`case when ${full} then ${bounds.recipient.reason} else null end`,
        })
        .where(moved),
      reminderMoved(scope, reminder.id, to.scheduledFor),
    ),
    scope.db
      .insert(publicMessageCounts)
      .select(
        sql`select ${scope.workspaceId}, ${day}, ${key}, 1, 0
          where exists (select 1 from ${messages} where ${messages.id} = ${reminder.id} and ${messages.status} = 'scheduled')`,
      )
      .onConflictDoUpdate({
        target: counterKey,
        set: { used: sql`${publicMessageCounts.used} + 1` },
      }),
  ];
}

/**
 * A stranger's reminder canceled with its booking before it went out never
 * reaches the inbox: its day's count gives it back (in the cancel's batch,
 * before the reminder is canceled). Otherwise booking and canceling for a
 * victim's contact would use up the days of the victim's own reminders.
 */
export function uncountReminder(
  scope: Scope,
  reminder: MessageRow,
  bounds: Pick<CustomerBounds, "recipient">,
): Statement {
  const day = bounds.recipient.dayOf(reminder);
  const key = bounds.recipient.keyOf(reminder);
  return scope.db
    .update(publicMessageCounts)
    .set({ used: sql`max(${publicMessageCounts.used} - 1, 0)` })
    .where(
      and(
        eq(publicMessageCounts.workspaceId, scope.workspaceId),
        eq(publicMessageCounts.day, day),
        eq(publicMessageCounts.recipient, key),
        sql`exists (select 1 from ${messages} where ${messages.id} = ${reminder.id}
          and ${messages.status} = 'scheduled' and ${messages.visitor} is not null)`,
      ),
    );
}

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

/** What a booking's messages say of its location: its name, zone and address. */
export const messageLocationColumns = {
  name: locations.name,
  timezone: locations.timezone,
  ...locationAddressColumns,
};

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
        .select(messageLocationColumns)
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

import type { BookingRecord } from "./queries/bookings";
import {
  cancelScheduledReminders,
  type ChangeMessagesContext,
  type CustomerBounds,
  insertMessages,
  moveCountedReminder,
  moveReminder,
  type NewMessage,
  uncountReminder,
} from "../messages/queries/messages";
import type { Scope } from "../db/scope";
import type { Condition, Statement } from "../db/statement";
import { addressOf } from "../platform/rules/address";
import {
  announce,
  type MessageBooking,
  type MessageContext,
  type MessageDraft,
  type Recipient,
  remind,
  settingsFrom,
  writeMessage,
} from "../messages/rules";
import { normaliseLocale } from "../messages/rules/locale";
import {
  DEFAULT_PUBLIC_MESSAGE_BUDGET,
  PUBLIC_RECIPIENT_MESSAGES,
  recipientKey,
  type SkipReason,
  utcDay,
} from "../messages/rules";
import type { EventType } from "../webhooks/queries/outbox";
import {
  BOOKING_MESSAGES,
  BOOKING_QUOTA,
  PUBLIC_MESSAGES,
  VISITOR_QUOTA,
} from "../platform/rules/public-visit";
import { icalLink } from "./views/booking";
import type { RenderContext } from "../http/deps";
import type { MessageEffects } from "./change-value";

/** Builds a booking's manage link (the manage slice signs it); absent: `manage_url` is empty. */
export type ManageUrl = (booking: BookingRecord["booking"]) => string;

/** What a booking's messages are written with besides the rows read. */
export interface MessageDeps {
  scope: Scope;
  render: RenderContext;
  manageUrl?: ManageUrl | undefined;
  /**
   * A customer's write (publishable key or manage link): the visitor (client
   * address, hashed) its messages are counted against (`PUBLIC_MESSAGES`).
   */
  messageVisitor?: string | undefined;
}

/**
 * The daily bounds on a customer's messages (per visitor, per booking, per
 * recipient, the workspace's budget), as the write's batch decides them.
 */
const customerBounds = (now: number): CustomerBounds => ({
  visitor: {
    perVisitor: PUBLIC_MESSAGES.perVisitor,
    windowMs: PUBLIC_MESSAGES.windowSeconds * 1000,
    error: VISITOR_QUOTA,
  },
  booking: {
    perBooking: BOOKING_MESSAGES.perBooking,
    windowMs: BOOKING_MESSAGES.windowSeconds * 1000,
    error: BOOKING_QUOTA,
    kinds: BOOKING_MESSAGES.kinds,
  },
  recipient: {
    perRecipient: PUBLIC_RECIPIENT_MESSAGES.perRecipient,
    keyOf: (row) => recipientKey(row.channel, row.to),
    // The day it goes out: reminders written on several days for one day's visits share it.
    dayOf: (row) => utcDay(row.scheduledFor),
    reason: "recipient_quota" satisfies SkipReason,
  },
  workspace: {
    defaultBudget: DEFAULT_PUBLIC_MESSAGE_BUDGET,
    reason: "workspace_quota" satisfies SkipReason,
    event: "quota-reached" satisfies EventType,
  },
  day: utcDay(now),
});

/** A write's message rows, bounded per visitor and per booking when a customer's write caused them. */
const insertBounded = (deps: MessageDeps, rows: NewMessage[]) =>
  insertVisitorMessages(deps.scope, rows, deps.messageVisitor);

/**
 * Message rows a visitor's write (or a waitlist entry a visitor made) causes.
 * `visitor` set is what marks them caused by a stranger (a publishable key, a
 * manage or offer link): counted against that visitor's daily bound, the
 * recipient's and the workspace's budget (rows past one are written `skipped`
 * with its `skip_reason`); null or undefined: the salon's own, unbounded.
 * `when`: written only if that holds in the batch (a payment still pending).
 */
export const insertVisitorMessages = (
  scope: Scope,
  rows: NewMessage[],
  visitor: string | null | undefined,
  when?: Condition,
) =>
  insertMessages(
    scope,
    rows,
    visitor ? customerBounds(rows[0]?.createdAt ?? Date.now()) : undefined,
    when,
  );

/** A booking as its messages tell it, from its record and its staff's first names. */
export function messageBooking(
  deps: MessageDeps,
  record: Pick<BookingRecord, "booking" | "services">,
  stafferNames: ReadonlyMap<string, string>,
): MessageBooking {
  const names = record.services.flatMap((s) => {
    const name = s.stafferId ? stafferNames.get(s.stafferId) : undefined;
    return name ? [name] : [];
  });
  return {
    id: record.booking.id,
    startAt: record.booking.startAt,
    serviceNames: record.services.map((s) => s.name),
    stafferFirstNames: names,
    icalUrl: icalLink(deps.render, record.booking),
    manageUrl: deps.manageUrl?.(record.booking) ?? "",
  };
}

/** Message rows for drafts, each with its own id, about one customer (caused by `visitor`). */
export function messageRows(
  scope: Scope,
  customerId: string,
  drafts: MessageDraft[],
  now: number,
  visitor?: string | undefined,
): NewMessage[] {
  return drafts.map((d) => ({
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    bookingId: d.bookingId,
    customerId,
    kind: d.kind,
    channel: d.channel,
    to: d.to,
    locale: d.locale,
    subject: d.subject,
    body: d.body,
    status: d.status,
    skipReason: d.skipReason,
    scheduledFor: d.scheduledFor,
    attempts: 0,
    createdAt: now,
    visitor: visitor ?? null,
  }));
}

/** New bookings (one order, maybe a cart): one confirmation for all, and each one's reminders. */
export function creationMessages(
  deps: MessageDeps,
  ctx: MessageContext,
  records: BookingRecord[],
  stafferNames: ReadonlyMap<string, string>,
  now: number,
): Statement[] {
  const told = records.map((v) => messageBooking(deps, v, stafferNames));
  const own = deps.messageVisitor ? { ...ctx, fromStranger: true } : ctx;
  const drafts = [
    ...announce("booking-confirmation", own, told, now),
    ...told.flatMap((b) => remind(own, b, now)),
  ];
  return insertBounded(
    deps,
    messageRows(deps.scope, ctx.customer.id, drafts, now, deps.messageVisitor),
  );
}

/** The context of a changed booking's messages, from what was read with it (null: no customer). */
export function changeContext(
  deps: MessageDeps,
  read: ChangeMessagesContext,
  record: BookingRecord,
): MessageContext | null {
  const { customer, location } = read;
  if (!customer || !location) return null;
  return {
    settings: settingsFrom(read.settings),
    workspaceLocale: deps.render.locale,
    currency: deps.render.currency,
    customer: recipient(customer, record.booking),
    location: { name: location.name, address: addressOf(location), timezone: location.timezone },
    total: record.order.total,
    // A stranger's change, or a name a stranger typed into the widget (its reminders too).
    fromStranger: Boolean(deps.messageVisitor) || record.booking.ownContact,
  };
}

/** A booking's own contact, where it has one, and the language its request came in. */
export type ContactOf = Pick<
  BookingRecord["booking"],
  "ownContact" | "contactFirstName" | "contactEmail" | "customerBrowserLanguage"
>;

/**
 * Whom a booking's messages reach. A publishable key's booking (`ownContact`)
 * is told at what its own request gave: that first name, that e-mail (none:
 * no e-mail), in its browser's language; anyone may type anyone's phone into
 * the widget, so the stored customer's e-mail and name are never its. SMS go
 * to the phone, the customer's (a customer is found by it). Staff's bookings
 * follow the stored customer. Opt-outs are the customer's either way.
 */
export const recipient = (
  c: {
    id: string;
    firstName: string;
    email: string | null;
    phone: string;
    locale: string | null;
    notifyEmail: boolean;
    notifySms: boolean;
  },
  booking: ContactOf,
): Recipient => {
  const stored = {
    id: c.id,
    firstName: c.firstName,
    email: c.email,
    phone: c.phone,
    locale: c.locale,
    notifyEmail: c.notifyEmail,
    notifySms: c.notifySms,
  };
  if (!booking.ownContact) return stored;
  return {
    ...stored,
    firstName: booking.contactFirstName ?? c.firstName,
    email: booking.contactEmail,
    locale: bookingLocale(booking, c.locale),
  };
};

/**
 * The language a booking's customer is addressed in, null for the workspace's:
 * a publishable key's booking speaks the language its own request came in, never
 * the stored customer's (which would tell whoever typed a phone that it is a
 * customer's, and which language they speak); staff's follow the stored customer.
 */
export const bookingLocale = (booking: ContactOf, stored: string | null): string | null =>
  booking.ownContact ? normaliseLocale(booking.customerBrowserLanguage) : stored;

/**
 * What a change tells the customer: the message it sends (if any), and its
 * reminders still to go out moved with the booking (re-timed, re-written;
 * canceled when the new time has passed) or canceled with it.
 */
export function changeMessages(
  deps: MessageDeps,
  effects: MessageEffects,
  read: ChangeMessagesContext,
  record: BookingRecord,
  delta: number,
  now: number,
): Statement[] {
  const ctx = changeContext(deps, read, record);
  if (!ctx) return [];
  const told = messageBooking(deps, record, read.stafferNames);
  const sent = effects.send ? announce(effects.send, ctx, [told], now) : [];
  const statements = insertBounded(
    deps,
    messageRows(deps.scope, ctx.customer.id, sent, now, deps.messageVisitor),
  );
  if (effects.reminders === "cancel") {
    // Whoever cancels: a stranger's reminders that will never go out stop counting.
    const counted = customerBounds(now);
    for (const reminder of read.reminders)
      if (reminder.visitor) statements.push(uncountReminder(deps.scope, reminder, counted));
    statements.push(cancelScheduledReminders(deps.scope, record.booking.id));
    return statements;
  }
  // A customer's move is bounded as a customer's write is: a reminder moved onto another
  // day counts in that day (the bound is the day a recipient is told).
  const bounds = deps.messageVisitor ? customerBounds(now) : undefined;
  for (const reminder of read.reminders) {
    const at = reminder.scheduledFor + delta;
    const text = writeMessage("booking-reminder", reminder.channel, ctx, [told]);
    if (bounds && at > now && utcDay(at) !== utcDay(reminder.scheduledFor)) {
      statements.push(
        ...moveCountedReminder(deps.scope, reminder, { scheduledFor: at, ...text }, bounds),
      );
      continue;
    }
    statements.push(
      moveReminder(deps.scope, reminder.id, {
        scheduledFor: at,
        ...text,
        status: at > now ? "scheduled" : "canceled",
      }),
    );
  }
  return statements;
}

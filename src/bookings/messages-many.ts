import type { BookingRecord } from "./queries/bookings";
import type { ChangeMessagesContext } from "../messages/queries/messages";
import { cancelRemindersOf, moveReminders } from "./queries/series-change";
import type { Statement } from "../db/statement";
import { announce, writeMessage } from "../messages/rules";
import type { BookingChange } from "./change-value";
import {
  changeContext,
  insertVisitorMessages,
  type MessageDeps,
  messageBooking,
  messageRows,
} from "./messages";

/**
 * What a change of many bookings (a series) tells the customer: ONE message
 * per channel for all the bookings that send one (like a cart's
 * confirmation, it lists every date and carries the first booking's uuid),
 * not one per occurrence (52 e-mails and SMS for one cancel); and each
 * booking's reminders still to go out moved with it or canceled, as a single
 * change does, in a few statements whatever their number.
 */
export function manyMessages(
  deps: MessageDeps,
  planned: readonly { loaded: BookingRecord; change: BookingChange }[],
  records: readonly BookingRecord[],
  read: ChangeMessagesContext,
  now: number,
): Statement[] {
  const first = records[0];
  const ctx = first ? changeContext(deps, read, first) : null;
  if (!ctx) return [];
  const told = records.map((record) => messageBooking(deps, record, read.stafferNames));
  const kinds = [...new Set(planned.flatMap(({ change }) => change.messages?.send ?? []))];
  const sent = kinds.flatMap((kind) =>
    announce(
      kind,
      ctx,
      told.filter((_, i) => planned[i]?.change.messages?.send === kind),
      now,
    ),
  );
  const canceled: string[] = [];
  const moved: Parameters<typeof moveReminders>[1][number][] = [];
  planned.forEach(({ loaded, change }, i) => {
    const record = records[i];
    const booking = told[i];
    if (!change.messages || !record || !booking) return;
    if (change.messages.reminders === "cancel") {
      canceled.push(record.booking.id);
      return;
    }
    const own = changeContext(deps, read, record);
    if (!own) return;
    const delta = record.booking.startAt - loaded.booking.startAt;
    for (const reminder of read.reminders) {
      if (reminder.bookingId !== record.booking.id) continue;
      const at = reminder.scheduledFor + delta;
      const text = writeMessage("booking-reminder", reminder.channel, own, [booking]);
      moved.push({
        id: reminder.id,
        scheduledFor: at,
        ...text,
        status: at > now ? "scheduled" : "canceled",
      });
    }
  });
  return [
    // A customer's change of a series is bounded as any of theirs is.
    ...insertVisitorMessages(
      deps.scope,
      messageRows(deps.scope, ctx.customer.id, sent, now, deps.messageVisitor),
      deps.messageVisitor,
    ),
    ...cancelRemindersOf(deps.scope, canceled),
    ...moveReminders(deps.scope, moved),
  ];
}

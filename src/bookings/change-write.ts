import { staffClaims } from "../calendar/client";
import type { PlannedWrite } from "../calendar/client";
import { creditAccount } from "../pos/queries/accounts";
import {
  cancelBookingUpdate,
  replaceBusyTime,
  stillAsRead,
  updateBookedService,
  updateBooking,
} from "./queries/booking-change";
import { updateOrder } from "../pos/queries/order-change";
import type { LoadedBooking } from "./queries/bookings";
import { eventStatement } from "../webhooks/queries/outbox";
import { guard } from "../db/guards";
import type { Statement } from "../db/statement";
import { type BookingRecord, renderBooking } from "./views/booking";
import type { Booking } from "./views/booking-schema";
import { spendTender } from "../pos/vouchers/tender";
import type { ChangeMessagesContext } from "../messages/queries/messages";
import type { BookingChange } from "./change-value";
import { changeMessages } from "./messages";
import { busyMoves } from "../calendar/planning/busy-moves";
import { movingClaims } from "../calendar/planning/calendar-entries";
import type { BookingDeps } from "./deps";
import { noneHeld, type HeldCredits } from "../packages/queries/booking-holds";
import { creditStatements } from "./credit-ends";
import { revenueRollup } from "../reports/queries/revenue-rollup";

/** The booking as the change leaves it: the record the answer and the event render. */
export function changedRecord(
  loaded: LoadedBooking,
  change: BookingChange,
  now: number,
): BookingRecord {
  const patches = new Map((change.services ?? []).map((s) => [s.id, s]));
  const patched = <S extends { id: string }>(s: S): S => {
    const patch = patches.get(s.id);
    return patch ? { ...s, ...patch } : s;
  };
  return {
    ...loaded,
    booking: {
      ...loaded.booking,
      ...change.booking,
      version: loaded.booking.version + 1,
      updatedAt: now,
    },
    services: loaded.services.map(patched),
    orderServices: loaded.orderServices.map(patched),
    order: change.order
      ? { ...loaded.order, ...change.order, version: loaded.order.version + 1 }
      : loaded.order,
    status: change.status ?? loaded.status,
  };
}

/**
 * What the runner sends for a change: the claims of the busy time that moves,
 * and one batch with the version guard at its head, one UPDATE per changed
 * row (versions included), the busy time, the money, the customer's
 * messages and the outbox event.
 */
export function changeWrite(
  deps: BookingDeps,
  loaded: LoadedBooking,
  change: BookingChange,
  now: number,
  told: ChangeMessagesContext | null = null,
  creditHolds: HeldCredits = noneHeld,
): PlannedWrite<Booking> {
  const { scope } = deps;
  const { booking, order } = loaded;
  const record = changedRecord(loaded, change, now);
  const value = renderBooking(record, deps.render);
  const moves = busyMoves(loaded.entries, change.busy);
  const payment = change.payment;
  const on = { orderId: order.id, bookingId: booking.id, at: now };
  if (change.messages && !told)
    throw new Error("a change that tells the customer must be read with `notifies`");
  const delta = record.booking.startAt - booking.startAt;
  const build = (): Statement[] => [
    guard(scope, stillAsRead(booking, change.order ? order : null)),
    // A cancel asks in the same UPDATE whether the booking's online money needs settling.
    change.booking?.isCanceled
      ? cancelBookingUpdate(scope, booking.id, change.booking, now, {
          visitor: deps.messageVisitor,
          origin: deps.render.origin,
        })
      : updateBooking(scope, booking.id, change.booking ?? {}, now),
    ...(change.services ?? []).map((s) => updateBookedService(scope, s)),
    ...(change.order ? [updateOrder(scope, order.id, change.order)] : []),
    // Behind the guard: a change that loses its race adds nothing to the report.
    ...revenueRollup(scope, { locationId: order.locationId, at: now }, change.revenue ?? []),
    ...replaceBusyTime(scope, moves),
    ...(payment?.credit ? creditAccount(scope, { ...payment.credit, ...on }) : []),
    ...(payment ? spendTender(scope, payment.tender, payment.split, on) : []),
    ...creditStatements(scope, creditHolds, [{ loaded, change }], now),
    ...(change.messages && told
      ? changeMessages(deps, change.messages, told, record, delta, now)
      : []),
    ...(deps.changeAlongside?.(record) ?? []),
    eventStatement(scope.db, scope.workspaceId, change.event, value),
  ];
  return {
    claims: staffClaims(movingClaims(moves.removed, moves.added), deps.staff),
    build,
    value,
  };
}

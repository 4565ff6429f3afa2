import type { VoucherRow } from "../pos/queries/vouchers";
import type { BookingPatch, EntryRow, OrderPatch, ServicePatch } from "./queries/booking-change";
import type { LoadedBooking } from "./queries/bookings";
import type { EventType } from "../webhooks/queries/outbox";
import type { PaymentSplit } from "../pos/rules";
import type { TenderedVouchers } from "../pos/vouchers/tender";
import type { UseEnding } from "../packages/booking-end";
import type { RevenueEntry } from "../reports/rules/revenue-entries";

export type { VoucherRow };

/**
 * A change to a booking, as its plan describes it: what each row becomes,
 * never how to write it. The runner (`change-write.ts`) derives the view,
 * the SQL, the calendar claims, the guard and the outbox event from it.
 */
export interface BookingChange {
  event: EventType;
  /** Columns of the booking that change. */
  booking?: BookingPatch;
  /** Columns of its booked services that change, each by id. */
  services?: ServicePatch[];
  /** Columns of its order that change: the order is then compare-and-set with the booking. */
  order?: OrderPatch;
  /** The status the booking moves to (the row `booking.statusId` names). */
  status?: LoadedBooking["status"];
  /**
   * The booking's busy time once changed: every entry it will have, in its
   * staffers' and resource units' calendars. Absent when its time stays.
   */
  busy?: EntryRow[];
  /** Money the change takes in: the account's part and the vouchers spent. */
  payment?: Payment;
  /**
   * What the customer is told: a message sent now, and what becomes of the
   * booking's reminders still to go out. The runner writes the rows (its
   * operation must say `notifies`, so their context is read with the booking).
   */
  messages?: MessageEffects;
  /**
   * Credit uses the plan ends itself (a replaced service's credit given
   * back); a complete or cancel ends every held use without saying so.
   */
  creditEnds?: UseEnding[];
  /** What the change adds to the revenue report, on the order's location's day of `now`. */
  revenue?: RevenueEntry[];
}

export interface MessageEffects {
  /** A message about the change, on every channel that reaches the customer. */
  send?: "booking-rescheduled" | "booking-canceled" | undefined;
  /** Reminders move with the booking (re-timed, re-written) or are canceled with it. */
  reminders: "move" | "cancel";
}

export interface Payment {
  /** The account credited, and by how much (absent when the vouchers paid it all). */
  credit?: { accountId: string; amount: number };
  tender: TenderedVouchers;
  split: PaymentSplit;
}

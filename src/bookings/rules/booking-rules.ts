/**
 * The booking state machine of the reference: which operations an open,
 * completed or canceled booking allows, and when a service may be replaced.
 */

import { type Problem, problem } from "../../platform/rules/problems";
export interface BookingState {
  isCanceled: boolean;
  isCompleted: boolean;
}

export const isOpen = (b: BookingState) => !b.isCanceled && !b.isCompleted;

export type Operation =
  "complete" | "cancel" | "reschedule" | "change_staffer" | "replace_service" | "notes" | "status";

/** Closed bookings keep their history: only notes and the workspace status still change. */
export function allows(b: BookingState, op: Operation): boolean {
  if (op === "notes" || op === "status") return true;
  return isOpen(b);
}

export const CANCEL_REASONS = [
  "canceled",
  "didnt_come",
  "postponed",
  "wrong_order",
  "spam",
  "other",
] as const;

/** The reasons a customer may give; the others (didnt_come, wrong_order, spam) are staff's judgement. */
export const CUSTOMER_CANCEL_REASONS = ["canceled", "postponed", "other"] as const;

export interface CancelRequest {
  cancelReason?: string | undefined;
  internalNotes?: string | undefined;
  stafferId?: string | undefined;
  chargeFee?: boolean | undefined;
}

/**
 * What a customer's cancel can be wrong about: why, the internal notes, the
 * staffer named, asking for a fee.
 */
export type CancelSubject = { is: "reason" } | { is: "notes" } | { is: "staffer" } | { is: "fee" };

/**
 * What is wrong with a customer's cancel (empty when nothing is). A customer
 * writes only why (among their reasons); internal notes and the staffer who
 * canceled are staff's to record. Sending them is refused rather than
 * ignored, so a caller never believes something was recorded that was not.
 */
export function customerCancelRefusals(req: CancelRequest): Problem<CancelSubject>[] {
  const reasons: readonly string[] = CUSTOMER_CANCEL_REASONS;
  return [
    ...(req.cancelReason !== undefined && !reasons.includes(req.cancelReason)
      ? [
          problem(
            { is: "reason" } as const,
            `With a publishable key, one of ${CUSTOMER_CANCEL_REASONS.join(", ")}.`,
          ),
        ]
      : []),
    ...(req.internalNotes !== undefined
      ? [problem({ is: "notes" } as const, "Only staff (a secret key) write internal notes.")]
      : []),
    ...(req.stafferId !== undefined
      ? [
          problem(
            { is: "staffer" } as const,
            "Only staff (a secret key) cancel in a staffer's name.",
          ),
        ]
      : []),
    ...(req.chargeFee !== undefined
      ? [
          problem(
            { is: "fee" } as const,
            "Only staff (a secret key) decide to charge a fee; a customer's cancel costs what the booking's terms say.",
          ),
        ]
      : []),
  ];
}

export interface ReplaceabilityInput extends BookingState {
  /** Services on the booking (resources are not modelled, so every service counts). */
  serviceCount: number;
  quantity: number;
  slotsCount: number;
  amountPaid: number;
  orderStatus: string;
  posGoodsOnOrder: number;
}

/** The reference's conditions for swapping the service of a simple booking; null when replaceable. */
export function whyNotReplaceable(b: ReplaceabilityInput): string | null {
  if (!isOpen(b)) return "The booking is completed or canceled.";
  if (b.serviceCount !== 1) return "The booking must have exactly one service.";
  if (b.quantity !== 1) return "The booking's quantity must be 1.";
  if (b.slotsCount !== 1) return "The booking must take a single slot.";
  if (b.amountPaid > 0 || b.orderStatus !== "open") return "The booking has been paid.";
  if (b.posGoodsOnOrder > 0) return "The booking's order has POS goods.";
  return null;
}

/** List filter `state`, judged at `now`. */
export type ListState = "upcoming" | "in_progress" | "archive";

/** What ending a booking does with the credit it holds. */
export type UseEnd = "used" | "returned";

export interface HeldUse {
  /** The service's late-cancel window when booked (null: a cancel never uses the credit). */
  lateCancelMinutes: number | null;
  /** The service's policy had a no-show fee when booked: a no-show uses the credit. */
  noShowUses: boolean;
  /** When the credit was taken: the booking was made. */
  createdAt: number;
}

/**
 * A completed booking uses its credits. A cancel gives them back, unless the
 * service's policy (as copied when booked) would have charged a fee for it:
 * a no-show (`didnt_come`) when it had a no-show fee, a cancel within its
 * late-cancel window before the start. The credit stands for the money, so
 * it is the fee: nothing more is charged for a service a credit paid.
 *
 * A booking made when its window had already opened is not a late cancel: the
 * salon never counted on it for longer than the window. Without this, anyone
 * who learnt a package's uuid and its owner's phone could burn its credits by
 * booking inside the window and cancelling at once, from any address.
 */
export function cancelUse(
  use: HeldUse,
  cancel: { at: number; start: number; noShow: boolean },
): UseEnd {
  if (cancel.noShow) return use.noShowUses ? "used" : "returned";
  if (use.lateCancelMinutes === null) return "returned";
  const windowOpens = cancel.start - use.lateCancelMinutes * 60_000;
  if (use.createdAt >= windowOpens) return "returned";
  return cancel.at >= windowOpens ? "used" : "returned";
}

import type { UseCaseDeps } from "../http/deps";
import type { Statement } from "../db/statement";
import type { BookingRecord } from "./views/booking";

/**
 * What a booking use-case needs besides its inputs: what every use-case takes
 * (`UseCaseDeps`: scope, bindings, render context, deferred work, who writes),
 * and, for a manage link's change, the link's own check.
 */
export interface BookingDeps extends UseCaseDeps {
  /**
   * A manage link's change: throws (401 `invalid_token`) when the link no
   * longer opens the booking as read (another customer's, or a day past its end).
   */
  link?: ((booking: { customerId: string; endAt: number }) => void) | undefined;
  /**
   * What the caller's module writes in a change's own batch, behind its version guard, with
   * the booking as the change leaves it (the booking server records the version of its own
   * change, so its notifier does not tell Google of what Google asked for).
   */
  changeAlongside?: ((record: BookingRecord) => Statement[]) | undefined;
}

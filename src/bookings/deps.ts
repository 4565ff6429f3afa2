import type { UseCaseDeps } from "../http/deps";

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
}

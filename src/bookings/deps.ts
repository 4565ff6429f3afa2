import type { Scope } from "../db/scope";
import type { Defer } from "../calendar/client";
import type { Env } from "../platform/env";
import type { RenderContext } from "./views/booking";
import type { ManageUrl } from "./messages";

/**
 * What a booking use-case needs besides its inputs: the workspace's D1 scope,
 * the Worker's bindings (the calendar objects) and how to render the result.
 */
export interface BookingDeps {
  scope: Scope;
  env: Env;
  render: RenderContext;
  /** Work that may finish after the response (calendar confirms). */
  defer: Defer;
  /**
   * Staff (a secret key) write: a publishable key's hold over the time gives
   * way (the write takes it and the hold ends). A customer's (publishable key) never does.
   */
  staff: boolean;
  /**
   * Counts a customer's (not staff's) change against the booking: throws 429
   * `rate_limited` past the bound. The change runner calls it once the booking
   * is read and may be changed by the caller, for every change a publishable
   * key or a manage link makes.
   */
  limitCustomerChange: (bookingId: string) => Promise<void>;
  /**
   * A manage link's change: throws (401 `invalid_token`) when the link no
   * longer opens the booking as read (another customer's, or a day past its end).
   */
  link?: ((booking: { customerId: string; endAt: number }) => void) | undefined;
  /** The manage link of a booking, for its messages' `manage_url` (signed synchronously). */
  manageUrl?: ManageUrl | undefined;
  /**
   * A customer's write (publishable key or manage link): the visitor its
   * messages count against (`messageVisitor`); undefined for staff's.
   */
  messageVisitor?: string | undefined;
}

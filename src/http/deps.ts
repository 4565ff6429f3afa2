import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { Defer } from "../platform/defer";
import type { Env } from "../platform/env";

/** How an answer is rendered for its workspace. */
export interface RenderContext {
  currency: string;
  locale: string;
  /** Origin of the request, for absolute links. */
  origin: string;
}

/**
 * What a use-case needs besides its inputs, built once per request (the public
 * API's `requestDeps`, a manage link's `customerDeps`): the workspace's D1
 * scope, the Worker's bindings, how to render the result, and the customer
 * facts a write is bounded by. A module's use-cases take it, or extend it
 * (`BookingDeps` adds the manage link's check).
 */
export interface UseCaseDeps {
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
  /** The manage link of a booking, for its messages' `manage_url` (signed synchronously). */
  manageUrl?:
    | ((booking: { id: string; workspaceId: string; customerId: string; endAt: number }) => string)
    | undefined;
  /**
   * A customer's write (publishable key or manage link): the visitor its
   * messages count against (`messageVisitor`); undefined for staff's.
   */
  messageVisitor?: string | undefined;
  /**
   * What a module above bookings writes, in the booking's own batch, when a
   * booking uses a reservation: the waitlist books the entry the reservation
   * was offered to (nothing when it was offered to none). Given where the
   * deps are built (the composition root, an offer's route), so bookings
   * imports no module above it.
   */
  reservationUsed: ReservationUsed;
}

export type ReservationUsed = (
  scope: Scope,
  reservationId: string,
  bookingId: string,
  now: number,
  /** Every booking the write makes (a cart makes several), with its services. */
  bookings: readonly BookingMade[],
) => Statement[];

/** A booking a reservation became, as the modules told of it see it. */
export interface BookingMade {
  id: string;
  services: readonly { serviceId: string; start: number; quantity: number }[];
}

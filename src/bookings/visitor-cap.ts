import { isGuardFailure } from "../db/constraints";
import { guard } from "../db/guards";
import { visitorBookings, visitorWithinCap } from "../db/queries/booking-visitors";
import type { Scope } from "../db/scope";
import { PUBLIC_BOOKINGS, type VisitFields } from "../domain/public-visit";
import { ApiError } from "../lib/errors";

const WINDOW_MS = PUBLIC_BOOKINGS.windowSeconds * 1000;

/** How the per-request bounds name a booking's fields (`items` bodies and the single one). */
export const bookingVisitFields = (fields: {
  service: (item: number, service: number) => string;
  services: (item: number) => string;
}): VisitFields => ({
  subject: "A booking with a publishable key books",
  service: fields.service,
  services: fields.services,
});

/**
 * The cap on a publishable visitor's bookings (`PUBLIC_BOOKINGS`): a cheap
 * count read beside the planning read refuses the common case before any
 * calendar is asked; a guard in the booking's own write decides it for
 * bookings fired at once (D1 runs one batch at a time).
 */
export class VisitorCap {
  private constructor(
    private readonly scope: Scope,
    private readonly visitor: string,
    private readonly counted: { counted: number; oldest: number | null },
  ) {}

  /** Reads the visitor's count; null for staff (no visitor). */
  static async read(scope: Scope, visitor: string | undefined): Promise<VisitorCap | null> {
    if (!visitor) return null;
    return new VisitorCap(scope, visitor, await visitorBookings(scope, visitor, since()));
  }

  /** 429 unless `adding` more bookings fit, as the count read said. */
  check(adding: number): void {
    if (this.counted.counted + adding > PUBLIC_BOOKINGS.perVisitor) {
      throw tooManyBookings(this.counted.oldest);
    }
  }

  /** The batch statement that aborts the write unless `adding` more still fit. */
  guard(adding: number) {
    return guard(
      this.scope,
      visitorWithinCap(this.scope, this.visitor, since(), adding, PUBLIC_BOOKINGS.perVisitor),
    );
  }

  /**
   * After a refused write: if a guard refused and the visitor is now at the
   * cap (bookings made at the same moment), 429; otherwise the error was
   * another guard's, for the caller to explain.
   */
  async explain(error: unknown, adding: number): Promise<void> {
    if (!isGuardFailure(error)) return;
    const now = await visitorBookings(this.scope, this.visitor, since());
    if (now.counted + adding > PUBLIC_BOOKINGS.perVisitor) throw tooManyBookings(now.oldest);
  }
}

const since = () => Date.now() - WINDOW_MS;

/** 429 `too_many_bookings`, with how long until the oldest counted booking is a day old. */
function tooManyBookings(oldest: number | null) {
  const wait = Math.max(1, Math.ceil(((oldest ?? Date.now()) + WINDOW_MS - Date.now()) / 1000));
  return new ApiError(
    "too_many_bookings",
    `A visitor may make at most ${PUBLIC_BOOKINGS.perVisitor} bookings a day with a publishable key; cancel one, or wait.`,
    { headers: { "retry-after": String(wait) } },
  );
}

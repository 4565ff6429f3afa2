import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import { eventStatement } from "../webhooks/queries/outbox";
import type { CreditUseRow } from "./queries/credit-uses";
import { endUses } from "./queries/end-uses";
import { creditsWhenWritten } from "./queries/credit-counts";
import type { HeldCredits } from "./queries/booking-holds";
import { type BookingEnd, endsOf } from "./rules/booking-end";
import { periodBounds } from "./rules/bounds";
import type { UseEnd } from "./rules/settle-use";
import { type PackageCreditUsed } from "./views/credit-used";
import { renderCustomerPackage, shownCredits } from "./views/customer-package";

export type { BookingEnd } from "./rules/booking-end";
export { NO_SHOW_REASON } from "./rules/booking-end";

/** One held use and how it ends. */
export interface UseEnding {
  use: CreditUseRow;
  end: UseEnd;
}

/** What a booking's end does with the uses it holds (read with it): see `endsOf`. */
export const bookingEndings = (held: HeldCredits, bookingId: string, end: BookingEnd) =>
  endsOf(
    held.uses.filter((u) => u.bookingId === bookingId),
    end,
  );

/**
 * The statements for a change's batch that end these uses, and a
 * `package-credit-used` event for each one used. Each end acts only while
 * its use is still reserved (`endUses`); the change's own guard (the booking
 * at the version read) already makes a second end of the same booking fail
 * as a whole, so an event is never sent for a use ended twice. The event
 * shows the package as this change leaves it; its counts are read when the
 * batch runs, so another booking's use of the same package in between shows.
 */
export function endingStatements(
  scope: Scope,
  held: HeldCredits,
  endings: readonly UseEnding[],
  now: number,
): Statement[] {
  if (endings.length === 0) return [];
  const ends = endUses(scope, endings, now);
  const events = endings
    .filter((e) => e.end === "used")
    .map(({ use }) => creditUsedEvent(scope, held, endings, use, now));
  return [...ends, ...events];
}

function creditUsedEvent(
  scope: Scope,
  held: HeldCredits,
  endings: readonly UseEnding[],
  use: CreditUseRow,
  now: number,
): Statement {
  const record = held.packages.find((p) => p.pkg.id === use.customerPackageId);
  if (!record) throw new Error(`credit use ${use.id} without its package`);
  const { pkg } = record;
  // The counts as this change leaves them (every use it ends on this package).
  const credits = record.credits.map((c) => {
    const mine = endings.filter((e) => e.use.creditId === c.id);
    const back = mine.reduce((n, e) => n + e.use.count, 0);
    const used = mine.filter((e) => e.end === "used").reduce((n, e) => n + e.use.count, 0);
    return { ...c, reserved: c.reserved - back, used: c.used + used };
  });
  const rendered = renderCustomerPackage(pkg, credits, now, (k) => periodBounds(pkg, k));
  const ids = shownCredits(pkg, credits, now).map((c) => c.id);
  // The shown credits go in once, through `late` (one parameter whatever their number:
  // a membership's live credits of several periods bound two each, past D1's 100).
  const data: PackageCreditUsed = {
    booking_uuid: use.bookingId,
    booking_service_uuid: use.bookingServiceId,
    customer_package: { ...rendered, credits: [] },
  };
  // Each shown credit's counts as the batch finds them (after its own ends).
  const late = {
    "customer_package.credits": creditsWhenWritten(
      rendered.credits.map((shown, i) => ({ id: ids[i] ?? "", shown })),
    ),
  };
  return eventStatement(scope.db, scope.workspaceId, "package-credit-used", data, late);
}

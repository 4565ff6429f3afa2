import { confirmationsRead } from "../db/queries/confirmations";
import { run } from "../db/reads";
import type { UseCaseDeps } from "../http/deps";
import type { BookingRecord } from "./queries/bookings";
import type { Booking } from "./views/booking-schema";

/**
 * What the customer who just booked is answered beyond the booking itself:
 * each booking's manage link (the one its messages carry as `manage_url`) and
 * whom its confirmation was written to go out to. The confirmations are read
 * by a SELECT appended to the write's own batch, after the message rows: a
 * quota decided in SQL (`skipped`) is seen as the batch decided it, at no
 * round trip of its own. Staff's answers and every later read carry neither.
 */
export function customerAnswer(
  deps: Pick<UseCaseDeps, "scope" | "manageUrl">,
  records: readonly BookingRecord[],
  rendered: readonly Booking[],
) {
  const confirmations = confirmationsRead(
    deps.scope,
    records.map((r) => r.booking.id),
  );
  const own = confirmations.statements.length;
  return {
    /** Last in the write's batch: it reads the rows the statements before it wrote. */
    statements: confirmations.statements,
    /** The batch's results of the write's own statements; null: committed, the answer lost. */
    answer: async (results: readonly unknown[] | null): Promise<Booking[]> => {
      // Lost answers are rare (D1 committed, the reply did not arrive): then one read more.
      const sentTo = results
        ? confirmations.parse(results.slice(results.length - own))
        : await run(deps.scope.db, confirmations);
      return rendered.map((booking, i) => {
        const record = records[i];
        // Empty without a signing secret: no link is issued, none shown.
        const link = record ? (deps.manageUrl?.(record.booking) ?? "") : "";
        return {
          ...booking,
          links: link ? [...booking.links, { type: "manage" as const, link }] : booking.links,
          confirmation_sent_to: sentTo,
        };
      });
    },
  };
}

import {
  type Availability,
  type AvailabilityQuery,
  availabilityFrom,
  availabilityReads,
  type AvailabilityRows,
} from "../db/queries/availability";
import { bookingRefs } from "../db/queries/booking-refs";
import type { Alongside } from "./change";

/**
 * A change's availability, read in the booking's own batch: `query` names the
 * booking's location, staffers, services and dates through `its` (subqueries
 * on the booking), so the change costs one read round trip, not two.
 */
export const availabilityAlongside = (
  bookingId: string,
  query: (its: ReturnType<typeof bookingRefs>) => AvailabilityQuery,
): Alongside<Availability> => ({
  reads: (scope) => availabilityReads(scope, query(bookingRefs(scope, bookingId))),
  read: (rows) => availabilityFrom(rows as unknown as AvailabilityRows),
});

import { manageContextRead } from "../../db/queries/manage";
import { bookingRead } from "../../db/queries/bookings";
import { nothing, type Read, readTogether } from "../../db/reads";
import type { Scope } from "../../db/scope";
import { notFound } from "../../lib/errors";

/**
 * A manage link's booking with what its answers need beside it (the
 * workspace's render settings, the location, the customer's language) and
 * whatever else the caller reads (`extra`), in one D1 round trip. The scope
 * is the verified token's workspace: a booking of any other is not found.
 */
export async function readManaged<R = undefined>(scope: Scope, bookingId: string, extra?: Read<R>) {
  const read = await readTogether(scope.db, {
    loaded: bookingRead(scope, bookingId),
    context: manageContextRead(scope, bookingId),
    extra: extra ?? nothing(undefined as R),
  });
  const { loaded, context } = read;
  const { workspace, location } = context;
  if (!loaded || !workspace || !location) throw notFound("Booking");
  return {
    loaded,
    workspace,
    location,
    customerLocale: context.customerLocale,
    staffers: context.staffers,
    extra: read.extra,
  };
}

import { manageContextRead } from "../queries/manage";
import { bookingRead } from "../queries/bookings";
import { nothing, type Read, readTogether } from "../../db/reads";
import type { Scope } from "../../db/scope";
import { notFound } from "../../platform/errors";
import { assertLinkOpens } from "../manage-link";
import type { ManageGrant } from "../manage-token";

/**
 * A manage link's booking with what its answers need beside it (the
 * workspace's render settings, the location, the customer's language) and
 * whatever else the caller reads (`extra`), in one D1 round trip. The scope
 * is the verified token's workspace: a booking of any other is not found. A
 * booking the link no longer opens (moved since it was issued, or a day past
 * its current end) is 401 `invalid_token`.
 */
export async function readManaged<R = undefined>(
  scope: Scope,
  grant: ManageGrant,
  extra?: Read<R>,
) {
  const { bookingId } = grant;
  const read = await readTogether(scope.db, {
    loaded: bookingRead(scope, bookingId),
    context: manageContextRead(scope, bookingId),
    extra: extra ?? nothing(undefined as R),
  });
  const { loaded, context } = read;
  const { workspace, location } = context;
  if (!loaded || !workspace || !location) throw notFound("Booking");
  assertLinkOpens(grant, loaded.booking);
  return {
    loaded,
    workspace,
    location,
    customerLocale: context.customerLocale,
    staffers: context.staffers,
    extra: read.extra,
  };
}

import { eq } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import {
  bookingServices,
  bookings,
  customers,
  locations,
  staffers,
  workspaces,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";

/**
 * What a manage link's answers need beside the booking, by the booking id
 * alone (subqueries on it, so it runs in the booking's own batch): the
 * workspace's money and language settings and its brand, the booking's location, the
 * customer's language, and the first names of the booking's own staffers
 * (nothing more of them: a stranger may hold the link). The workspace is the one the verified token names.
 */
export function manageContextRead(scope: Scope, bookingId: string) {
  const { db } = scope;
  const own = whereIn(scope, bookings, eq(bookings.id, bookingId));
  return read(
    [
      db
        .select({
          currency: workspaces.currency,
          locale: workspaces.locale,
          brandName: workspaces.brandName,
          brandLogoUrl: workspaces.brandLogoUrl,
          brandAccentColor: workspaces.brandAccentColor,
        })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
      db
        .select()
        .from(locations)
        .where(
          whereIn(
            scope,
            locations,
            inSubquery(
              locations.id,
              db.select({ id: bookings.locationId }).from(bookings).where(own),
            ),
          ),
        ),
      db
        .select({ locale: customers.locale })
        .from(customers)
        .where(
          whereIn(
            scope,
            customers,
            inSubquery(
              customers.id,
              db.select({ id: bookings.customerId }).from(bookings).where(own),
            ),
          ),
        ),
      db
        .select({ uuid: staffers.id, first_name: staffers.firstName })
        .from(staffers)
        .where(
          whereIn(
            scope,
            staffers,
            inSubquery(
              staffers.id,
              db
                .select({ id: bookingServices.stafferId })
                .from(bookingServices)
                .where(whereIn(scope, bookingServices, eq(bookingServices.bookingId, bookingId))),
            ),
          ),
        )
        .orderBy(staffers.firstName, staffers.id),
    ] as const,
    ([workspace, location, customer, staff]) => ({
      workspace: workspace[0] ?? null,
      location: location[0] ?? null,
      customerLocale: customer[0]?.locale ?? null,
      staffers: staff,
    }),
  );
}

/** The workspace's money and language settings alone (a manage link's write renders with them). */
export const workspaceRenderRead = (scope: Scope) =>
  read(
    [
      scope.db
        .select({ currency: workspaces.currency, locale: workspaces.locale })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
    ] as const,
    ([rows]) => rows[0] ?? null,
  );

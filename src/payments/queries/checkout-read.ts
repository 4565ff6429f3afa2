import { eq } from "drizzle-orm";
import { read } from "../../db/reads";
import { reservations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { heldEntryRows } from "../../calendar/queries/hold-extension";
import { selectBookingForm, toBookingForm } from "../../tenancy/queries/booking-form";
import { selectCheckout } from "./checkouts";

/**
 * What starting a checkout reads, in one round trip: the reservation, the
 * calendar entries that hold its time, its checkout so far, and the booking
 * form its customer fields are checked against.
 */
export const checkoutRead = (scope: Scope, reservationId: string) =>
  read(
    [
      scope.db
        .select()
        .from(reservations)
        .where(whereIn(scope, reservations, eq(reservations.id, reservationId))),
      heldEntryRows(scope, reservationId),
      selectCheckout(scope, reservationId),
      selectBookingForm(scope),
    ] as const,
    ([reservation, entries, checkout, form]) => ({
      reservation: reservation[0] ?? null,
      entries,
      checkout: checkout[0] ?? null,
      form: toBookingForm(form),
    }),
  );

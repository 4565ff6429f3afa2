import type { BookingDeps } from "../bookings/deps";
import { createBookings } from "../bookings/create";
import { heldItems } from "../calendar/held-items";
import { isLive, type ReservationRow } from "../calendar/queries/reservations";
import { offerByToken, type WaitlistEntryRow } from "./queries/waitlist";
import type { Scope } from "../db/scope";
import { sha256Hex } from "../tenancy/api-keys";
import { workspaceOfToken } from "../platform/workspace-token";
import { ApiError } from "../platform/errors";

/** What every offer link that opens nothing answers, whatever was wrong with it. */
export const invalidOffer = () =>
  new ApiError("invalid_token", "The offer link is invalid or no longer open; ask the salon.");

const gone = () =>
  new ApiError(
    "reservation_expired",
    "The offer has expired or was already booked; the time may have gone to the next person waiting.",
  );

/**
 * The entry and live reservation an offer link opens: 401 `invalid_token` for
 * a token no current offer has (never issued, or replaced by a newer offer),
 * 409 `reservation_expired` once the offer ended.
 */
export async function openOffer(shard: Scope, token: string) {
  const opened = await openOfferOrBooked(shard, token);
  if (opened.booked) throw gone();
  return opened;
}

/** The booking an offer became through its link, still its customer's. */
export interface BookedOffer {
  id: string;
  workspaceId: string;
  customerId: string;
  startAt: number;
  endAt: number;
}

/**
 * What an offer link opens for its page: the live offer, or, once the offer
 * was booked with its reservation (through the link, or a widget using it),
 * that booking while it is still the offer's customer's (the same phone: a
 * booking staff handed to someone else is not shown to the link), whether or
 * not its reservation is still kept (`reservation` null once pruned). 401 and
 * 409 as `openOffer` for anything else. `shard` is the workspace the token
 * names, on its shard: an offer found there is still refused unless it is
 * that workspace's.
 */
export async function openOfferOrBooked(shard: Scope, token: string) {
  const { db } = shard;
  const named = workspaceOfToken(token) === shard.workspaceId;
  const found = named ? await offerByToken(db, await sha256Hex(token)) : null;
  if (!found || found.entry.workspaceId !== shard.workspaceId) throw invalidOffer();
  const { entry, reservation, workspace } = found;
  const scope: Scope = { db, workspaceId: entry.workspaceId };
  // The booking first: a reservation is pruned a day after it expired, its booking stays.
  const booked = bookedOffer(found);
  if (booked) return { entry, scope, reservation, workspace, booked };
  if (!reservation) throw gone();
  const live = entry.status === "offered" && isLive(reservation, Date.now());
  if (!live) throw gone();
  return { entry, scope, reservation, workspace, booked: null };
}

function bookedOffer(found: NonNullable<Awaited<ReturnType<typeof offerByToken>>>) {
  const { entry, booked } = found;
  if (entry.status !== "booked" || !entry.bookingId || !booked) return null;
  const { id, startAt, endAt, customerId, customerPhone } = booked;
  if (id !== entry.bookingId || startAt === null || endAt === null || !customerId) return null;
  if (customerPhone !== entry.phone) return null;
  return { id, workspaceId: entry.workspaceId, customerId, startAt, endAt } satisfies BookedOffer;
}

/**
 * Books an offer as its customer: exactly the held time (the reservation is
 * used up in the booking's own write, and the entry becomes `booked` there),
 * for the entry's phone and names; a field the booking form requires that
 * the entry lacks comes from the body. The booking of an entry a publishable
 * key joined is its joining visitor's (429 `too_many_bookings` past the cap).
 */
export async function bookOffer(
  deps: BookingDeps,
  opened: {
    entry: WaitlistEntryRow;
    reservation: ReservationRow;
  },
  req: {
    country: string;
    lastName?: string | undefined;
    email?: string | undefined;
    comment?: string | undefined;
  },
) {
  const { entry, reservation } = opened;
  const items = heldItems(reservation).map((item) => ({
    start: Date.parse(item.datetime_start),
    services: item.services.map((s) => ({ serviceId: s.service_uuid, stafferId: s.staffer_uuid })),
  }));
  const created = await createBookings(deps, {
    country: req.country,
    locationId: entry.locationId,
    items,
    customer: {
      phone: entry.phone,
      firstName: entry.firstName,
      lastName: req.lastName,
      email: req.email ?? entry.email ?? undefined,
    },
    publicNotes: req.comment,
    source: "waitlist",
    customerBrowserLanguage: entry.locale ?? undefined,
    reservationId: reservation.id,
    caller: "customer",
    // An entry a widget's visitor joined: its booking is that visitor's, counted against its
    // bookings of the day, whatever address opens the link.
    visitor: entry.visitor ?? undefined,
    // The offer's customer is answered: the booking's manage link and whom its confirmation went to.
    customerAnswer: true,
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "reservation_expired") throw gone();
    throw error;
  });
  return created;
}

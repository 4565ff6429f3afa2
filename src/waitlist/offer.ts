import type { PlannedBooking } from "../calendar/planning/planner";
import { insertVisitorMessages, messageRows } from "../bookings/messages";
import { customerIdFor } from "../platform/rules/customer-id";
import { configOf } from "../platform/config";
import { findCustomerByPhone } from "../catalogue/queries/customers";
import { eventStatement } from "../webhooks/queries/outbox";
import {
  entryAtVersion,
  offerMade,
  offerRecorded,
  publicOfferWithin,
  type WaitlistEntryRow,
} from "./queries/waitlist";
import { holderWithinCap } from "../calendar/queries/reservations";
import { guard } from "../db/guards";
import { PUBLIC_HOLDS } from "../platform/rules/public-holds";
import { PUBLIC_OFFERS } from "./rules";
import type { Scope } from "../db/scope";
import { announce, type MessageContext, type NotificationSettings } from "../messages/rules";
import type { Env } from "../platform/env";
import type { Address } from "../platform/rules/address";
import { sha256Hex } from "../tenancy/api-keys";
import { publicOrigin } from "../platform/public-origin";
import { workspaceToken } from "../platform/workspace-token";
import { createReservation } from "../calendar/holds/create";
import { renderWaitlistEntry } from "./views/waitlist-entry";
import { entryServices } from "./stored-entry";
import { offerUrl } from "./offer-link";

/** What the location's offers are written with (read once per run). */
export interface OfferContext {
  settings: NotificationSettings;
  workspace: { currency: string; locale: string };
  location: { id: string; name: string; address: Address | null; timezone: string };
  stafferNames: ReadonlyMap<string, string>;
  /** Each service's name and the price the customer pays for it (filled as the pass reads them). */
  services: Map<string, { name: string; price: number }>;
}

/**
 * Offers an entry the time at `start`, placed as a cart item is (the entry's
 * staffers kept, others auto-allocated): a reservation (one claim per calendar) whose batch also moves the
 * entry to `offered` at the version it was read (so an entry never holds two
 * offers), writes the offer's messages and the `waitlist-offered` event. The
 * calendars decide: time another write took is refused (409), nothing written.
 */
export async function makeOffer(
  env: Env,
  scope: Scope,
  ctx: OfferContext,
  entry: WaitlistEntryRow,
  fit: { start: number },
  now: number,
): Promise<{ reservationId: string; expiresAt: number }> {
  const services = entryServices(entry);
  // The link carries no API key: its token names the workspace whose shard holds the offer.
  const token = workspaceToken(scope.workspaceId);
  const tokenHash = await sha256Hex(token);
  // Found by phone, a customer keeps the id it has; a new one gets the derived id.
  const customer = await findCustomerByPhone(scope, entry.phone);
  const customerId =
    customer?.id ??
    (await customerIdFor(scope.workspaceId, entry.phone, configOf(env).customerIdSecret));
  const minutes = ctx.settings.waitlist_offer_minutes;

  const statements = (reservationId: string, planned: PlannedBooking[], expiresAt: number) => {
    const booked = planned.flatMap((b) => b.services);
    const end = Math.max(...booked.map((s) => s.end));
    const offered: WaitlistEntryRow = {
      ...entry,
      status: "offered",
      offerReservationId: reservationId,
      offerStart: fit.start,
      offerEnd: end,
      offerExpiresAt: expiresAt,
      offerTokenHash: tokenHash,
      version: entry.version + 1,
      updatedAt: now,
    };
    const message: MessageContext = {
      settings: ctx.settings,
      workspaceLocale: ctx.workspace.locale,
      currency: ctx.workspace.currency,
      customer: {
        id: customerId,
        firstName: entry.firstName,
        email: entry.email,
        phone: entry.phone,
        locale: entry.locale,
        // A stored customer's opt-outs hold for offers too.
        notifyEmail: customer?.notifyEmail ?? true,
        notifySms: customer?.notifySms ?? true,
      },
      location: {
        name: ctx.location.name,
        address: ctx.location.address,
        timezone: ctx.location.timezone,
      },
      total: booked.reduce((sum, s) => sum + (ctx.services.get(s.serviceId)?.price ?? 0), 0),
      // On the configured origin, not the one the join was sent to (a caller's Host).
      offer: { url: offerUrl(publicOrigin(env), token, entry.locale), expiresAt },
      // A publishable join's name was a stranger's typing: carried only if it cannot read as a link.
      fromStranger: Boolean(entry.messageVisitor),
    };
    const drafts = announce(
      "waitlist-offer",
      message,
      [
        {
          id: entry.id,
          startAt: fit.start,
          serviceNames: booked.map((s) => ctx.services.get(s.serviceId)?.name ?? s.name),
          stafferFirstNames: booked.flatMap((s) => {
            const name = ctx.stafferNames.get(s.stafferId);
            return name ? [name] : [];
          }),
          icalUrl: "",
          manageUrl: "",
        },
      ],
      now,
    );
    // A publishable key's entry: its offers count against that visitor's daily messages.
    const rows = messageRows(scope, customerId, drafts, now, entry.messageVisitor ?? undefined).map(
      (row) => ({
        ...row,
        bookingId: null,
        customerId: customer ? customerId : null,
        waitlistEntryId: entry.id,
      }),
    );
    return [
      guard(scope, entryAtVersion(scope, entry.id, entry.version)),
      ...(entry.visitor ? visitorBounds(scope, { id: entry.id, visitor: entry.visitor }, now) : []),
      offerMade(scope, entry, { reservationId, start: fit.start, end, expiresAt, tokenHash }, now),
      ...insertVisitorMessages(scope, rows, entry.messageVisitor),
      eventStatement(scope.db, scope.workspaceId, "waitlist-offered", renderWaitlistEntry(offered)),
    ];
  };

  const reservation = await createReservation(
    { scope, env },
    {
      locationId: entry.locationId,
      items: [
        {
          start: fit.start,
          services: services.map((s) => ({
            serviceId: s.service_uuid,
            // The entry's own choice; "anyone" is allocated by the hold itself, which tries
            // another free staffer at this start when a write in flight took the first.
            stafferId: s.staffer_uuid ?? undefined,
          })),
        },
      ],
      ttlSeconds: minutes * 60,
      currency: ctx.workspace.currency,
      // A widget entry's offer is its visitor's hold, counted among its live holds.
      offer: { statements, holder: entry.visitor ?? undefined },
    },
  );
  return { reservationId: reservation.uuid, expiresAt: Date.parse(reservation.expires_at) };
}

/**
 * An offer to an entry a publishable key joined, in the offer's own batch
 * (after the reservation's row): the joining visitor's live holds, the offer
 * included, stay within a widget visitor's cap, and the offer is counted
 * against the visitor's and the workspace's daily offers. A refused guard
 * writes nothing; the desk passes the entry by.
 */
function visitorBounds(scope: Scope, entry: { id: string; visitor: string }, now: number) {
  const window = PUBLIC_OFFERS.windowSeconds * 1000;
  return [
    // Live at the moment the batch is built (the hold's own clock), not the pass's start.
    guard(scope, holderWithinCap(scope, entry.visitor, Date.now(), 0, PUBLIC_HOLDS.perHolder)),
    ...publicOfferWithin(scope, entry.visitor, now - window, PUBLIC_OFFERS).map((c) =>
      guard(scope, c),
    ),
    offerRecorded(scope, entry, now, now + window),
  ];
}

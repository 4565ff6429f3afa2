import type { RouteHandler } from "@hono/zod-openapi";
import { heldItems } from "../../../calendar/held-items";
import { bookedServicesRead, offerDetailsRead } from "../../queries/waitlist";
import { run } from "../../../db/reads";
import type { OpenEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { conflictErrors, json, queryErrors } from "../../../http/responses";
import { openLimitedOfferPage } from "./open";
import { offerErrors } from "./responses";
import { OfferTokenPath, WaitlistOfferSchema } from "./schema";
import { toIso } from "../../../platform/clock";
import { publicOrigin } from "../../../platform/public-origin";
import { renderOfferBooking } from "../../views/offer-booking";
import { renderSalon } from "../../../catalogue/views/salon";
import { addressColumns } from "../../../platform/rules/address";

export const route = defineRoute({
  operationId: "getWaitlistOffer",
  keys: "none",
  method: "get",
  path: "/waitlist-offers/{token}",
  tags: ["Waitlist"],
  summary: "The time a waitlist offer holds",
  description:
    "What the link of a waitlist-offer message opens: the held time, its services and staff, until when it is held, and the salon as the page shows it (`salon`: the brand's name, else the location's, its logo and accent colour, the location's address and phone). Needs no API key and no Workspace header (the token is the credential); rate-limited per client address, per token and per workspace. Once booked with this offer (through its link, or a widget using its reservation), it answers `status: booked` with `booking` (its uuid, its current times and manage link) while that booking is still this customer's; 409 reservation_expired once the offer lapsed, was declined, or its booking went to another customer.",
  request: { params: OfferTokenPath },
  responses: {
    200: json(WaitlistOfferSchema, "The offer"),
    ...offerErrors,
    ...queryErrors,
    ...conflictErrors(
      "The offer has lapsed, or its booking is no longer its customer's (`reservation_expired`)",
      ["reservation_expired"],
    ),
  },
});

/** A location that is gone (never, while locations are not deleted): a salon without one. */
const NO_LOCATION = { name: "", phone: null, ...addressColumns(null) };

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const { entry, scope, reservation, workspace, booked } = await openLimitedOfferPage(c, token);
  const items = reservation ? heldItems(reservation) : [];
  // A booked offer whose reservation was pruned lists its booking's services as they are now.
  const held =
    reservation || !booked
      ? items.flatMap((i) => i.services)
      : (await run(scope.db, bookedServicesRead(scope, booked.id))).map((s) => ({
          service_uuid: s.service_uuid,
          staffer_uuid: s.staffer_uuid,
          starts_at: toIso(s.startsAt),
          ends_at: toIso(s.endsAt),
        }));
  const details = await run(
    scope.db,
    offerDetailsRead(scope, {
      locationId: entry.locationId,
      serviceIds: held.map((s) => s.service_uuid),
      stafferIds: held.map((s) => s.staffer_uuid),
    }),
  );
  const locale = entry.locale ?? workspace.locale;
  return c.json(
    {
      entry_uuid: entry.id,
      customer_first_name: entry.firstName,
      locale,
      location_uuid: entry.locationId,
      location_name: details.location?.name ?? "",
      salon: renderSalon(workspace, details.location ?? NO_LOCATION, locale),
      timezone: details.location?.timezone ?? "UTC",
      start: items[0]?.datetime_start ?? toIso(entry.offerStart ?? booked?.startAt ?? 0),
      expires_at: toIso(reservation?.expiresAt ?? entry.offerExpiresAt ?? entry.offerStart ?? 0),
      services: held.map((s) => ({
        service_uuid: s.service_uuid,
        name: details.serviceNames.get(s.service_uuid) ?? "",
        staffer_uuid: s.staffer_uuid,
        staffer_first_name: details.stafferNames.get(s.staffer_uuid) ?? null,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
      })),
      // Booked through its link: its customer reopening it sees their booking, not an ended offer.
      status: booked ? ("booked" as const) : ("open" as const),
      booking: booked ? renderOfferBooking(c.env, publicOrigin(c.env), booked) : null,
    },
    200,
  );
};

import type { RouteHandler } from "@hono/zod-openapi";
import { readManaged } from "../../manage/read";
import { managedPackagesRead } from "../../queries/manage-packages";
import { now } from "../../../platform/clock";
import { bookingLocale } from "../../messages";
import type { OpenEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { json, queryErrors } from "../../../http/responses";
import { renderBooking } from "../../views/booking";
import { renderLocation } from "../../../catalogue/views/location";
import { renderSalon } from "../../../catalogue/views/salon";
import { managedScope, renderContext } from "./deps";
import { renderManageLink } from "./render";
import { manageErrors } from "./responses";
import { ManagedBookingSchema, TokenPath } from "./schema";
import { publicOrigin } from "../../../platform/public-origin";

export const route = defineRoute({
  operationId: "getManagedBooking",
  keys: "none",
  method: "get",
  path: "/manage/{token}",
  tags: ["Manage links"],
  summary: "The booking a manage link opens",
  description:
    "Needs no API key and no Workspace header: the link's token is the credential, and names the one booking (and workspace) it opens. Answers the booking (its `policy` says whether it may be canceled or moved now), its location, the salon as the page shows it (`salon`: the brand's name, else the location's, its logo and accent colour, the location's address and phone), the salon's time zone (`timezone`, the location's: the clock the messages use), the language to show it in, its staffers' first names, and the booking's link with its current expiry, and the customer's packages that still book or are waiting on a payment (`packages`). A link opens the booking wherever it has moved since the link was sent (until a day after its current end). Rate-limited per client address.",
  request: { params: TokenPath },
  responses: {
    200: json(ManagedBookingSchema, "The booking"),
    ...manageErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const { grant, scope } = await managedScope(c, token);
  const managed = await readManaged(
    scope,
    grant,
    managedPackagesRead(scope, grant.bookingId, now()),
  );
  const origin = publicOrigin(c.env);
  const { booking } = managed.loaded;
  const locale = bookingLocale(booking, managed.customerLocale) ?? managed.workspace.locale;
  return c.json(
    {
      booking: renderBooking(managed.loaded, renderContext(c, managed.workspace)),
      location: renderLocation(managed.location),
      salon: renderSalon(managed.workspace, managed.location, locale),
      timezone: managed.location.timezone,
      locale,
      staffers: managed.staffers,
      manage: await renderManageLink(c.env, origin, booking),
      packages: managed.extra,
    },
    200,
  );
};

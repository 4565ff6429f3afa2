import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listLiveReservations } from "../../queries/reservations";
import type { PublicEnv } from "../../../http/env";
import { pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderReservation } from "../../holds/view";
import { ListReservationsQuery, ReservationList } from "./schema";

export const route = defineRoute({
  operationId: "listReservations",
  keys: "secret",
  method: "get",
  path: "/reservations",
  tags: ["Reservations"],
  summary: "List the live reservations (holds), oldest first",
  description:
    "Every reservation that still holds its time (not used, deleted or expired), with `held_by` telling a booking widget's holds (publishable key) from staff's, and `checkout` the hosted checkout a customer is paying it through, if any. Filter by location and by a staffer whose time is held. Release one with DELETE /reservations/{uuid}. Secret keys only.",
  request: { query: ListReservationsQuery },
  responses: {
    200: json(ReservationList, "A page of live reservations"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listLiveReservations(
    c.var.deps.scope,
    page,
    { locationId: query.location_uuid, stafferId: query.staffer_uuid },
    Date.now(),
  );
  return c.json(
    paginate(
      c.req.url,
      rows.map((r) => renderReservation(r.row, r.checkout)),
      total,
      page,
    ),
    200,
  );
};

import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findReservationWithCheckout, isLive } from "../../queries/reservations";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderReservation } from "../../holds/view";
import { ReservationPath, ReservationSchema } from "./schema";

export const route = defineRoute({
  operationId: "getReservation",
  keys: "publishable",
  method: "get",
  path: "/reservations/{reservation_uuid}",
  tags: ["Reservations"],
  summary: "Get a reservation while it holds its time, or once a checkout was started for it",
  description:
    "404 once it expired (exact to the second), was used by a booking, or was deleted; except a reservation a checkout was started for (POST /reservations/{uuid}/checkout), which answers while the workspace keeps it, so a widget coming back from the payment page reads `checkout` (its status, the booking it became, that booking's manage link and whom its confirmation went to).",
  request: { params: ReservationPath },
  responses: {
    200: json(ReservationSchema, "The reservation"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("live reservation (nor one a checkout was started for)"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { reservation_uuid: id } = c.req.valid("param");
  const found = await findReservationWithCheckout(c.var.deps.scope, id);
  // The widget returns from the provider's page after the hold was used (or lapsed).
  if (!found || (!found.checkout && !isLive(found.row, Date.now()))) throw notFound("Reservation");
  // The manage link is signed by what the composition root gave the request (`deps.manageUrl`).
  return c.json(renderReservation(found.row, found.checkout, c.var.deps.manageUrl), 200);
};

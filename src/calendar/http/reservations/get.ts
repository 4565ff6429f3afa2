import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findReservation } from "../../queries/reservations";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { isLive } from "../../queries/reservations";
import { renderReservation } from "../../holds/view";
import { ReservationPath, ReservationSchema } from "./schema";

export const route = defineRoute({
  operationId: "getReservation",
  keys: "publishable",
  method: "get",
  path: "/reservations/{reservation_uuid}",
  tags: ["Reservations"],
  summary: "Get a reservation while it holds its time",
  description: "404 once it expired (exact to the second), was used by a booking, or was deleted.",
  request: { params: ReservationPath },
  responses: {
    200: json(ReservationSchema, "The reservation"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("live reservation"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { reservation_uuid: id } = c.req.valid("param");
  const row = await findReservation(c.var.deps.scope, id);
  if (!row || !isLive(row, Date.now())) throw notFound("Reservation");
  return c.json(renderReservation(row), 200);
};

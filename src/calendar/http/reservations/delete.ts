import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, notFoundError, queryErrors } from "../../../http/responses";
import { releaseReservation } from "../../holds/release";
import { ReservationPath } from "./schema";

export const route = defineRoute({
  operationId: "deleteReservation",
  keys: "publishable",
  method: "delete",
  path: "/reservations/{reservation_uuid}",
  tags: ["Reservations"],
  summary: "Release a reservation's time now",
  description:
    "The held time is free again for everyone at once. 404 when the reservation already expired, was used, was deleted or was taken over by staff. A secret key may release any reservation of its workspace (see GET /reservations); a publishable key the ones whose uuid it holds.",
  request: { params: ReservationPath },
  responses: {
    204: { description: "Released; empty body" },
    ...authErrors,
    ...queryErrors,
    ...notFoundError("live reservation"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { reservation_uuid: id } = c.req.valid("param");
  await releaseReservation(c.var.deps, id);
  return c.body(null, 204);
};

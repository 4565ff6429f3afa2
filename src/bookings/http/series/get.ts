import { type RouteHandler, z } from "@hono/zod-openapi";
import { seriesRead } from "../../queries/series";
import { run } from "../../../db/reads";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { uuid } from "../../../platform/fields";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderSeries, SeriesWithBookingsSchema } from "../../views/series";

export const SeriesPath = z.object({ series_uuid: uuid("series_uuid") });

export const route = defineRoute({
  operationId: "getSeries",
  keys: "secret",
  method: "get",
  path: "/series/{series_uuid}",
  tags: ["Series"],
  summary: "Get a recurring series and its bookings",
  description:
    "The series and every booking of it, in start order (canceled ones included). A series of another workspace is 404.",
  request: { params: SeriesPath },
  responses: {
    200: json(SeriesWithBookingsSchema, "The series"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("series"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { series_uuid: id } = c.req.valid("param");
  const view = await run(c.var.deps.scope.db, seriesRead(c.var.deps.scope, id));
  if (!view) throw notFound("Series");
  return c.json(renderSeries(view, c.var.deps.render), 200);
};

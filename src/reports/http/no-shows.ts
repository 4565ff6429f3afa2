import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../http/env";
import { defineRoute } from "../../http/operations";
import { authErrors, notFoundError, queryErrors } from "../../http/responses";
import { noShowReport } from "../no-shows";
import { NO_SHOW_GROUPS, NoShowReport, NoShowRow } from "../views/no-shows";
import { csvResponse, wantsCsv } from "./respond";
import { reportQuery, reportResponse } from "./schema";

export const route = defineRoute({
  operationId: "getNoShowReport",
  keys: "secret",
  method: "get",
  path: "/reports/no-shows",
  tags: ["Reports"],
  summary: "No-shows and late cancels of a location's bookings",
  description:
    "Bookings by the location's day of their start, per service, staffer or customer: those that were due (kept, no-shows, late cancels; a timely cancel is not counted), no-shows (`didnt_come`), late cancels (by staff with a fee, or inside the booking's late-cancel window, else 24 h), their rates and the fees charged for them. A booking of two services counts under each. Read from daily rollups in one D1 round trip.",
  request: { query: reportQuery(NO_SHOW_GROUPS, "service") },
  responses: {
    200: reportResponse(NoShowReport, "no-shows"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("location"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const report = await noShowReport(c.var.deps.scope, {
    locationId: q.location_uuid,
    from: q.from,
    to: q.to,
    groupBy: q.group_by,
  });
  if (wantsCsv(c)) return csvResponse(c, "no-shows", NoShowRow, report);
  return c.json(report, 200);
};

import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../http/env";
import { defineRoute } from "../../http/operations";
import { authErrors, notFoundError, queryErrors } from "../../http/responses";
import { utilizationReport } from "../utilization";
import { UTILIZATION_GROUPS, UtilizationReport, UtilizationRow } from "../views/utilization";
import { csvResponse, wantsCsv } from "./respond";
import { reportQuery, reportResponse } from "./schema";

export const route = defineRoute({
  operationId: "getUtilizationReport",
  keys: "secret",
  method: "get",
  path: "/reports/utilization",
  tags: ["Reports"],
  summary: "Utilization of a location's staff",
  description:
    "Per staffer or per day: working minutes from the staffers' weekly schedules at the location (a date override replaces the week's intervals), booked minutes (buffers included; a group session counts once however many seats) and blocked minutes from the calendar, split at the location's midnights; `utilization` = booked / working. Read from daily rollups in one D1 round trip.",
  request: { query: reportQuery(UTILIZATION_GROUPS, "staffer") },
  responses: {
    200: reportResponse(UtilizationReport, "utilization"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("location"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const report = await utilizationReport(c.var.deps.scope, {
    locationId: q.location_uuid,
    from: q.from,
    to: q.to,
    groupBy: q.group_by,
  });
  if (wantsCsv(c)) return csvResponse(c, "utilization", UtilizationRow, report);
  return c.json(report, 200);
};

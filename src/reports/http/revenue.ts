import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../http/env";
import { defineRoute } from "../../http/operations";
import { authErrors, notFoundError, queryErrors } from "../../http/responses";
import { revenueReport } from "../revenue";
import { REVENUE_GROUPS, RevenueReport, RevenueRow } from "../views/revenue";
import { csvResponse, wantsCsv } from "./respond";
import { reportQuery, reportResponse } from "./schema";

export const route = defineRoute({
  operationId: "getRevenueReport",
  keys: "secret",
  method: "get",
  path: "/reports/revenue",
  tags: ["Reports"],
  summary: "Revenue of a location's days",
  description:
    "Sales counted on the location's day their order was paid (lines gross under their kind, discounts apart), refunds on the day of the refund, late-cancel and no-show fees when charged or kept, membership renewals when charged. Tax is excluded. `net` = amounts + fees − discounts − refunds. Read from daily rollups in one D1 round trip.",
  request: { query: reportQuery(REVENUE_GROUPS, "day") },
  responses: {
    200: reportResponse(RevenueReport, "revenue"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("location"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const report = await revenueReport(c.var.deps.scope, {
    locationId: q.location_uuid,
    from: q.from,
    to: q.to,
    groupBy: q.group_by,
  });
  if (wantsCsv(c)) return csvResponse(c, "revenue", RevenueRow, report);
  return c.json(report, 200);
};

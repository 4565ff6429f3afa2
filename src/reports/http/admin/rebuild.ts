import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import {
  authErrors,
  errorCodes,
  json,
  queryErrors,
  workspaceNotFound,
} from "../../../http/responses";
import { workspaceDeps } from "../../../http/admin-deps";
import { WorkspaceParams } from "../../../tenancy/http/admin/workspaces/schema";
import { rebuildReports, type SaleLinesOf } from "../../rebuild/rebuild-reports";
import { RebuildQuery, RebuildResultSchema } from "./schema";

export const route = defineRoute({
  operationId: "rebuildWorkspaceReports",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/reports/rebuild",
  tags: ["Reports"],
  summary: "Rebuild the reports' daily rollups from the raw rows",
  description:
    "Computes a location's rollups (revenue, calendar time, bookings and no-shows) from its bookings, calendar, orders, payments and renewals, and replaces the kept ones, in windows of 31 of the location's days: each window's batch commits only if no write moved a rollup meanwhile (else that window is read again, up to 3 times, then the call answers 409 `conflict`; windows already replaced stay). A location created before the reports gets its zone's offsets first. Without `location_uuid`, every location of the workspace, one after the other.",
  request: { params: WorkspaceParams, query: RebuildQuery },
  responses: {
    200: json(RebuildResultSchema, "Rebuilt"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("location"),
    409: errorCodes("The location's rollups kept changing during 3 rebuilds", ["conflict"]),
  },
});

/** The handler, given how an order's lines are priced (the pos rules, which reports cannot import). */
export const handler =
  (saleLinesOf: SaleLinesOf): RouteHandler<typeof route, AdminEnv> =>
  async (c) => {
    const { ws } = c.req.valid("param");
    const { location_uuid } = c.req.valid("query");
    const result = await rebuildReports(
      workspaceDeps(c, ws).scope,
      saleLinesOf,
      location_uuid?.toLowerCase(),
    );
    return c.json(result, 200);
  };

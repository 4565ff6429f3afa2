import { type RouteHandler, z } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { authErrors, bodyErrors, json, jsonBody, notFoundError } from "../../../http/responses";
import { now, toIso } from "../../../platform/clock";
import { createDashboardLink } from "../link";
import { DashboardLinkBody } from "./schema";

const DashboardLink = z
  .object({
    url: z.url().openapi({ description: "The dashboard page, its token in the query string" }),
    expires_at: z.string().openapi({ description: "ISO 8601 UTC: the link opens nothing after" }),
  })
  .openapi("DashboardLink");

export const route = defineRoute({
  operationId: "createReportsDashboardLink",
  keys: "secret",
  method: "post",
  path: "/reports/dashboard-link",
  tags: ["Reports"],
  summary: "A link to a location's read-only dashboard",
  description:
    "A signed link, valid 24 hours, to a page showing the location's revenue by day, utilization by staffer and day and the no-show rate for the period (`from`..`to`, dates in the location's zone, at most 366 days; by default the 30 days ending today), in the workspace's language. The link opens only that page, read-only, and nothing once the API key that made it is revoked. Secret keys only.",
  request: jsonBody(DashboardLinkBody),
  responses: {
    201: json(DashboardLink, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("location"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const link = await createDashboardLink(
    { db: c.var.db, workspaceId: c.var.workspace.id },
    c.env,
    c.var.apiKey.id,
    c.req.valid("json"),
    now(),
  );
  return c.json({ url: link.url, expires_at: toIso(link.expiresAt) }, 201);
};

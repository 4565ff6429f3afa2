import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import { authErrors, json, workspaceNotFound } from "../../../http/responses";
import { workspaceDeps } from "../../../http/admin-deps";
import { WorkspaceParams } from "../../../tenancy/http/admin/workspaces/schema";
import { AVAILABILITY_DAYS, availabilityFeed } from "../../feeds/availability-feed";
import { hourNonce } from "../../rules/feed-values";
import { AvailabilityFeedSchema } from "../../views/availability-feed";
import { AvailabilityFeedQuery, feedTooLarge } from "./feeds-schema";

export const route = defineRoute({
  operationId: "getReserveWithGoogleAvailabilityFeed",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/rwg/feeds/availability.json",
  tags: ["Reserve with Google"],
  summary: "Google's availability feed: one location's open slots, one shard per location",
  description: `Google's AvailabilityFeed (proto3 JSON, proto names, int64 as strings), PROCESS_AS_COMPLETE, sharded by location: shard N holds the open starts of the workspace's Nth location (creation order) for the services of the service feed, over the next ${AVAILABILITY_DAYS} days from the request, found as the public time slots are (spots_open is their quantity). Every shard of one generation has the same nonce: fetch them within one UTC hour, or pass \`nonce\`. Answered whether or not the booking server is enabled.`,
  request: { params: WorkspaceParams, query: AvailabilityFeedQuery },
  responses: {
    200: json(AvailabilityFeedSchema, "One shard of the availability feed"),
    ...authErrors,
    ...feedTooLarge,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const { shard, nonce } = c.req.valid("query");
  const nowMs = Date.now();
  const feed = await availabilityFeed(workspaceDeps(c, ws).scope, {
    shard: shard ?? 0,
    nowMs,
    nonce: nonce ?? hourNonce(nowMs),
  });
  return c.json(feed, 200);
};

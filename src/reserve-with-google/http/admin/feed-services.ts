import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import { authErrors, json, workspaceNotFound } from "../../../http/responses";
import { workspaceDeps } from "../../../http/admin-deps";
import { WorkspaceParams } from "../../../tenancy/http/admin/workspaces/schema";
import { serviceFeed } from "../../feeds/catalogue-feeds";
import { hourNonce } from "../../rules/feed-values";
import { ServiceFeedSchema } from "../../views/service-feed";
import { FeedQuery, feedTooLarge } from "./feeds-schema";

export const route = defineRoute({
  operationId: "getReserveWithGoogleServiceFeed",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/rwg/feeds/services.json",
  tags: ["Reserve with Google"],
  summary: "Google's service feed: what each location offers to book",
  description:
    "Google's ServiceFeed (proto3 JSON, proto names, int64 as strings), one shard, PROCESS_AS_COMPLETE: one entry per location and service offered there that a customer may book online straight away (live, shown in the widget, and no payment policy: a service that takes money or a card online is not offered to Google). Names and descriptions in the workspace's locale; price in micros of the workspace's currency (left out when hidden); rules from the location's minimum notice and cancellation offset, in seconds. Answered whether or not the booking server is enabled.",
  request: { params: WorkspaceParams, query: FeedQuery },
  responses: {
    200: json(ServiceFeedSchema, "The service feed"),
    ...authErrors,
    ...feedTooLarge,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const { nonce } = c.req.valid("query");
  const nowMs = Date.now();
  const feed = await serviceFeed(workspaceDeps(c, ws).scope, {
    nowMs,
    nonce: nonce ?? hourNonce(nowMs),
  });
  return c.json(feed, 200);
};

import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import { authErrors, json, workspaceNotFound } from "../../../http/responses";
import { workspaceDeps } from "../../../http/admin-deps";
import { WorkspaceParams } from "../../../tenancy/http/admin/workspaces/schema";
import { merchantFeed } from "../../feeds/catalogue-feeds";
import { hourNonce } from "../../rules/feed-values";
import { MERCHANT_CATEGORY, MerchantFeedSchema } from "../../views/merchant-feed";
import { FeedQuery, feedTooLarge } from "./feeds-schema";

export const route = defineRoute({
  operationId: "getReserveWithGoogleMerchantFeed",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/rwg/feeds/merchants.json",
  tags: ["Reserve with Google"],
  summary: "Google's merchant feed: every location of the workspace",
  description: `The workspace's locations as Google's MerchantFeed (proto3 JSON, proto names, int64 as strings), one shard, PROCESS_AS_COMPLETE, to upload to Google. merchant_id is the location's uuid; name the brand name, else the location's; telephone, geo's coordinates and address when the location has them; category \`${MERCHANT_CATEGORY}\`. Answered whether or not the booking server is enabled.`,
  request: { params: WorkspaceParams, query: FeedQuery },
  responses: {
    200: json(MerchantFeedSchema, "The merchant feed"),
    ...authErrors,
    ...feedTooLarge,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const { nonce } = c.req.valid("query");
  const nowMs = Date.now();
  const feed = await merchantFeed(workspaceDeps(c, ws).scope, {
    nowMs,
    nonce: nonce ?? hourNonce(nowMs),
  });
  return c.json(feed, 200);
};

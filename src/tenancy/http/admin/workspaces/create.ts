import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { insertApiKey } from "../../../queries/api-keys";
import { insertWorkspace, type WorkspaceSeed } from "../../../queries/workspaces";
import { runBatch } from "../../../../db/client";
import { emptiestShard } from "../../../queries/placement";
import { DIRECTORY, placingHandle, shardNames } from "../../../../db/shards";
import type { AdminEnv } from "../../../../http/env";
import { authErrors, bodyErrors, json, jsonBody } from "../../../../http/responses";
import { CreatedWorkspaceSchema, CreateWorkspaceBody, renderWorkspace } from "./schema";

export const route = defineRoute({
  operationId: "createWorkspace",
  keys: "admin",
  method: "post",
  path: "/workspaces",
  tags: ["Workspaces"],
  summary: "Create a workspace (returns its first API key once)",
  description:
    "The workspace is placed on the shard holding the fewest workspaces; `shard` names it.",
  request: jsonBody(CreateWorkspaceBody),
  responses: {
    201: json(CreatedWorkspaceSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
  },
});

/** The handler, writing what `seed` gives every new workspace in the workspace's own batch. */
export const seeding =
  (seed: WorkspaceSeed): RouteHandler<typeof route, AdminEnv> =>
  async (c) => {
    const body = c.req.valid("json");
    const id = crypto.randomUUID();
    const createdAt = Date.now();
    const row = {
      id,
      createdAt,
      ...body,
      locale: body.locale ?? "en",
      brandName: null,
      brandLogoUrl: null,
      brandAccentColor: null,
    };
    const directory = c.var.directory;
    const shard = await emptiestShard(directory, shardNames(c.env));
    const placed = { ...row, shard };
    // The shard first (the workspace's own row, open there, and its seeded rows such as the
    // default statuses, in one batch), then the directory (its row and first key), which makes
    // it reachable. A failure between the two leaves rows no key or path can reach.
    const key = await insertApiKey(directory, id, createdAt);
    const placing = placingHandle(c.env, shard, c.var.d1, c.var.gate);
    const db = placing.db;
    const onShard = [
      insertWorkspace(db, { ...placed, placement: "open" }),
      ...seed(db, id, createdAt),
    ];
    if (shard === DIRECTORY) {
      await runBatch(directory, [...onShard, key.statement]);
    } else {
      await runBatch(db, onShard);
      await directory.batch([
        insertWorkspace(directory, { ...placed, placement: "directory" }),
        key.statement,
      ]);
    }
    // Its first reads may be served by a replica: this bookmark makes them see the new rows.
    const bookmark = placing.bookmark();
    if (bookmark) c.header("d1-bookmark", bookmark);
    return c.json(
      { ...renderWorkspace({ ...placed, placement: "open" }), api_key: key.apiKey },
      201,
    );
  };

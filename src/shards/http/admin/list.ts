import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import { authErrors, json } from "../../../http/responses";
import { allShards, placingDb } from "../../../db/shards";
import { databaseSize, workspacesPerShard } from "../../queries/shard-sizes";
import { ShardListSchema } from "./schema";

export const route = defineRoute({
  operationId: "listShards",
  keys: "admin",
  method: "get",
  path: "/shards",
  tags: ["Shards"],
  summary: "List the shards, with their workspaces and sizes",
  description:
    "Every database that may hold workspaces: the directory (`DB`, workspaces from before shards) and each shard. `workspaces` is the directory's count; `size_bytes` what D1 reports for the database.",
  responses: {
    200: json(ShardListSchema, "The shards"),
    ...authErrors,
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const names = allShards(c.env);
  const [counts, sizes] = await Promise.all([
    workspacesPerShard(c.var.directory),
    Promise.all(names.map((name) => databaseSize(placingDb(c.env, name, c.var.d1)))),
  ]);
  return c.json(
    {
      data: names.map((name, i) => ({
        name,
        workspaces: counts.get(name) ?? 0,
        size_bytes: sizes[i] ?? 0,
      })),
    },
    200,
  );
};

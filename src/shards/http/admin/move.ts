import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  errorCodes,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../http/responses";
import { startMove } from "../../start-move";
import { MoveBody, MoveSchema } from "./schema";
import { z } from "@hono/zod-openapi";

const Params = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
});

export const route = defineRoute({
  operationId: "moveWorkspace",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/move",
  tags: ["Shards"],
  summary: "Move a workspace to another shard",
  description:
    "Answers 202 once the move is recorded and the workspace's writes are paused; the move then runs in the background (`GET /workspaces/{ws}` shows its `move`). Until the switch, writes answer 503 `workspace_moving` with Retry-After and reads are served from the old shard; then everything is served from the new one. Asking again for the move under way answers 202 with it as it stands. docs/sharding.md tells the steps.",
  request: { params: Params, ...jsonBody(MoveBody) },
  responses: {
    202: json(MoveSchema, "The move, started (or under way)"),
    ...authErrors,
    ...bodyErrors,
    409: errorCodes(
      "The workspace is on that shard already, another move of it is under way, or its webhook ids are taken on that shard",
      ["conflict"],
    ),
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const { shard } = c.req.valid("json");
  const move = await startMove(c.env, c.var.directory, ws.toLowerCase(), shard);
  return c.json(
    {
      workspace: move.workspaceId,
      from: move.fromShard,
      to: move.toShard,
      status: move.status,
      copied_rows: move.copiedRows,
    },
    202,
  );
};

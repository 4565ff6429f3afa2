import { z } from "@hono/zod-openapi";
import { MOVE_STATUSES } from "../../../db/schema";

export const MoveBody = z
  .object({
    shard: z
      .string()
      .regex(/^SHARD_\d{1,4}$/, "Must be a shard's name, as GET /shards lists them (SHARD_<n>).")
      .openapi({ description: "The shard to move to", example: "SHARD_1" }),
  })
  .openapi("MoveWorkspace");

export const MoveSchema = z
  .object({
    workspace: z.string(),
    from: z.string().openapi({ description: "The shard the workspace was on", example: "SHARD_0" }),
    to: z.string().openapi({ example: "SHARD_1" }),
    status: z.enum(MOVE_STATUSES).openapi({
      description:
        "`copying` (writes paused, reads served by `from`), `switching`, `cleaning` (the workspace lives on `to`; `from` is being emptied), `done`, or `aborted` (refused before the switch; the workspace stayed on `from`, writes open again)",
    }),
    copied_rows: z.number().int(),
  })
  .openapi("WorkspaceMove");

export const ShardSchema = z
  .object({
    name: z.string().openapi({ example: "SHARD_0" }),
    workspaces: z.number().int().openapi({ description: "Workspaces the directory places here" }),
    size_bytes: z.number().int().openapi({ description: "The database's size, as D1 reports it" }),
  })
  .openapi("Shard");

export const ShardListSchema = z.object({ data: z.array(ShardSchema) }).openapi("ShardList");

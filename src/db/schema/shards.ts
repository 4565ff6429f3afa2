import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Where a workspace stands in one database (its `workspaces` row there):
 * - `open`: it lives here; reads and writes are answered;
 * - `moving_out`: a move is copying it away; reads are answered, writes refused;
 * - `moving_in`: a move is copying it here; nothing is answered yet;
 * - `moved`: it lives elsewhere now; its rows here are being deleted;
 * - `directory`: the directory's row of a workspace living on a shard.
 */
export const PLACEMENTS = ["open", "moving_out", "moving_in", "moved", "directory"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/**
 * Any row makes the batch fail (`CHECK(0)`, named `workspace_not_here`): the
 * D1 layer puts an INSERT into it, conditioned on the workspace being open
 * here, at the head of every write it sends to a shard.
 */
export const placementFence = sqliteTable("placement_fence", {
  workspaceId: text("workspace_id").notNull(),
});

/** `aborted`: refused before the switch (the source reopened as it was; src/shards). */
export const MOVE_STATUSES = ["copying", "switching", "cleaning", "done", "aborted"] as const;
export type MoveStatus = (typeof MOVE_STATUSES)[number];

/** Directory: a workspace's move between shards, step by step (one row per workspace: its latest). */
export const workspaceMoves = sqliteTable(
  "workspace_moves",
  {
    workspaceId: text("workspace_id").primaryKey(),
    fromShard: text("from_shard").notNull(),
    toShard: text("to_shard").notNull(),
    status: text("status", { enum: MOVE_STATUSES }).notNull(),
    /** The copy's (or the clean-up's) cursor: the table it is at, and the last rowid done there. */
    tableIndex: integer("table_index").notNull().default(0),
    lastRowid: integer("last_rowid").notNull().default(0),
    copiedRows: integer("copied_rows").notNull().default(0),
    /** Steps that failed and were retried; the last failure's message. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    startedAt: integer("started_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("workspace_moves_status_idx").on(t.status, t.updatedAt)],
);

/**
 * Directory: sequences of integer ids the API shows and a workspace keeps
 * when it moves (a webhook's), one for every shard, so ids never clash.
 */
export const idSequences = sqliteTable("id_sequences", {
  name: text("name").primaryKey(),
  last: integer("last").notNull(),
});

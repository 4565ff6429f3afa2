import { and, asc, eq, lt, not, sql } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import type { Database } from "../../db/client";
import { workspaceMoves, workspaces } from "../../db/schema";

export type MoveRow = typeof workspaceMoves.$inferSelect;

/** A move in one of these is over: another may start. */
const FINISHED = ["done", "aborted"] as const;

/** A workspace's latest move (the directory keeps one row per workspace), or null: never moved. */
export async function latestMove(
  directory: Database,
  workspaceId: string,
): Promise<MoveRow | null> {
  const [row] = await directory
    .select()
    .from(workspaceMoves)
    .where(eq(workspaceMoves.workspaceId, workspaceId));
  return row ?? null;
}

/**
 * Records a new move (status `copying`, cursor at the start), replacing a
 * finished one; a move still under way is left as it is. True when this call
 * started it (two requests at once: one of them does).
 */
export async function recordMoveStart(
  directory: Database,
  move: { workspaceId: string; fromShard: string; toShard: string; now: number },
): Promise<boolean> {
  const fresh = {
    fromShard: move.fromShard,
    toShard: move.toShard,
    status: "copying" as const,
    tableIndex: 0,
    lastRowid: 0,
    copiedRows: 0,
    attempts: 0,
    lastError: null,
    startedAt: move.now,
    updatedAt: move.now,
    finishedAt: null,
  };
  const started = await directory
    .insert(workspaceMoves)
    .values({ workspaceId: move.workspaceId, ...fresh })
    .onConflictDoUpdate({
      target: workspaceMoves.workspaceId,
      set: fresh,
      setWhere: idIn(workspaceMoves.status, FINISHED),
    })
    .returning({ id: workspaceMoves.workspaceId });
  return started.length > 0;
}

/** The copy's (or the clean-up's) cursor after a chunk: where the next one starts. */
export async function recordCursor(
  directory: Database,
  workspaceId: string,
  cursor: { tableIndex: number; lastRowid: number; copiedRows: number },
  now = Date.now(),
): Promise<void> {
  await directory
    .update(workspaceMoves)
    .set({ ...cursor, updatedAt: now })
    .where(eq(workspaceMoves.workspaceId, workspaceId));
}

/** The next step; the cursor starts over for it (the clean-up walks the tables again). */
export async function recordStatus(
  directory: Database,
  workspaceId: string,
  status: "switching" | "done" | "aborted",
  now = Date.now(),
  reason?: string,
): Promise<void> {
  await directory
    .update(workspaceMoves)
    .set({
      status,
      tableIndex: 0,
      lastRowid: 0,
      updatedAt: now,
      ...(status === "switching" ? {} : { finishedAt: now }),
      ...(reason === undefined ? {} : { lastError: reason.slice(0, 500) }),
    })
    .where(eq(workspaceMoves.workspaceId, workspaceId));
}

/**
 * The switch, in the directory: the workspace's shard is the target from now
 * on, and the move goes on to clean the source. One batch, so a crash leaves
 * both or neither.
 */
export async function switchDirectory(
  directory: Database,
  workspaceId: string,
  toShard: string,
  now = Date.now(),
): Promise<void> {
  await directory.batch([
    directory
      .update(workspaces)
      .set({ shard: toShard, placement: "directory" })
      .where(eq(workspaces.id, workspaceId)),
    directory
      .update(workspaceMoves)
      .set({ status: "cleaning", tableIndex: 0, lastRowid: 0, updatedAt: now })
      .where(
        and(eq(workspaceMoves.workspaceId, workspaceId), eq(workspaceMoves.status, "switching")),
      ),
  ]);
}

/** A step that failed: counted, its message kept (it is tried again). */
export async function recordFailure(
  directory: Database,
  workspaceId: string,
  message: string,
  now = Date.now(),
): Promise<void> {
  await directory
    .update(workspaceMoves)
    .set({
      attempts: sql`${workspaceMoves.attempts} + 1`,
      lastError: message.slice(0, 500),
      updatedAt: now,
    })
    .where(eq(workspaceMoves.workspaceId, workspaceId));
}

/** Moves under way that nothing advanced since `before`: their runner stopped (or was never woken). */
export async function stalledMoves(directory: Database, before: number, limit = 50) {
  return directory
    .select({ workspaceId: workspaceMoves.workspaceId })
    .from(workspaceMoves)
    .where(and(not(idIn(workspaceMoves.status, FINISHED)), lt(workspaceMoves.updatedAt, before)))
    .orderBy(asc(workspaceMoves.updatedAt))
    .limit(limit);
}

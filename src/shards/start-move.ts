import type { Database } from "../db/client";
import { placingDb, shardNames } from "../db/shards";
import type { Env } from "../platform/env";
import { ApiError, fieldError, notFound } from "../platform/errors";
import { checkKeptKeys, KeysTaken } from "./kept-keys";
import { moverOf } from "./object/client";
import { latestMove, type MoveRow, recordMoveStart } from "./queries/moves";
import { setPlacement } from "./queries/placement";
import { workspaceShard } from "./queries/workspace-shard";
import { decideMove } from "./rules/move-request";

/**
 * Starts moving a workspace to `target` (step 1): the move recorded in the
 * directory, the workspace's writes paused on its shard, its runner woken.
 * Answers the move as recorded. The same move asked again while under way is
 * answered as it stands.
 */
export async function startMove(
  env: Env,
  directory: Database,
  workspaceId: string,
  target: string,
): Promise<MoveRow> {
  const current = await workspaceShard(directory, workspaceId);
  if (!current) throw notFound("Workspace");
  const decided = async () =>
    decideMove(current, target, shardNames(env), await latestMove(directory, workspaceId));
  let decision = await decided();
  if (decision.kind === "start") {
    await refuseKeysTaken(env, current, target, workspaceId);
    const now = Date.now();
    if (
      !(await recordMoveStart(directory, { workspaceId, fromShard: current, toShard: target, now }))
    ) {
      // Another request started one between the read and the write.
      decision = await decided();
    } else {
      // Paused before the answer: once the client has its 202, no write lands on the source.
      // (The runner pauses it again first thing, should this request die here.)
      await setPlacement(placingDb(env, current), workspaceId, "moving_out", ["open"]);
    }
  }
  switch (decision.kind) {
    case "unknown_shard":
      throw fieldError("shard", `Must be one of: ${shardNames(env).join(", ")}.`);
    case "already_there":
      throw new ApiError("conflict", `The workspace is on ${target} already.`);
    case "other_move":
      throw new ApiError(
        "conflict",
        `The workspace is being moved to ${decision.to}; wait until that move is done.`,
      );
  }
  await moverOf(env, workspaceId).wake(workspaceId);
  const move = await latestMove(directory, workspaceId);
  if (!move) throw new Error(`move of ${workspaceId} recorded but not found`);
  return move;
}

async function refuseKeysTaken(env: Env, from: string, to: string, workspaceId: string) {
  try {
    await checkKeptKeys(placingDb(env, from), placingDb(env, to), workspaceId);
  } catch (error) {
    if (!(error instanceof KeysTaken)) throw error;
    throw new ApiError(
      "conflict",
      `Webhook ids ${error.ids.join(", ")} of this workspace belong to another workspace on ${to}; a move would change them. Choose another shard.`,
    );
  }
}

import type { Env } from "../../platform/env";

/** A workspace's move runner (`ShardMover`), as the rest of the Worker calls it. */
export interface ShardMoverClient {
  /** Runs the workspace's recorded move at once (again, if it stopped). */
  wake(workspaceId: string): Promise<void>;
}

/** The move runner of one workspace, named by its id. */
export const moverOf = (env: Env, workspaceId: string): ShardMoverClient =>
  env.SHARD_MOVERS.getByName(workspaceId);

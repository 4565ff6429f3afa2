import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../platform/env";
import { AlarmLoop } from "../../platform/alarm-loop";
import { settingsAtEntry } from "../../platform/config";
import { runMove } from "../run-move";
import type { ShardMoverClient } from "./client";

/** A run that failed (a shard unavailable, a crash point in the tests) is tried again this much later. */
const RETRY_MS = 2_000;

/**
 * One workspace's move between shards (binding SHARD_MOVERS, named by the
 * workspace id). The directory's `workspace_moves` row is the move's whole
 * state; the alarm only says when to go on with it: each round runs the move
 * from its recorded step for a while, and sets the next round at once until
 * the move is done. One object per workspace, and its alarms never overlap,
 * so no two runs of one move interleave.
 */
export class ShardMover extends DurableObject<Env> implements ShardMoverClient {
  private readonly loop = new AlarmLoop(this.ctx.storage, {
    keys: ["workspace"],
    run: async ({ workspace }) => {
      const outcome = await runMove(this.env, workspace);
      if (outcome === "more") return Date.now();
      // The clean-up waits out its grace after the switch.
      return typeof outcome === "object" ? outcome.at : "stop";
    },
    retryMs: RETRY_MS,
    failure: "workspace move failed; it is tried again",
    fields: ({ workspace }) => ({ workspace_id: workspace }),
  });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    settingsAtEntry(env);
  }

  async wake(workspaceId: string): Promise<void> {
    await this.loop.wakeAt({ workspace: workspaceId }, Date.now());
  }

  override alarm(): Promise<void> {
    return this.loop.alarm();
  }
}

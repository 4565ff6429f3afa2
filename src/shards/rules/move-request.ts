/** The directory's move row, as the rules see it. */
export interface MoveState {
  fromShard: string;
  toShard: string;
  status: "copying" | "switching" | "cleaning" | "done" | "aborted";
}

export type MoveDecision =
  | { kind: "start" }
  /** The same move is under way: asked again, it is answered as it stands (202). */
  | { kind: "same_move" }
  | { kind: "unknown_shard" }
  | { kind: "already_there" }
  | { kind: "other_move"; to: string };

/**
 * Whether a workspace on `current` may start a move to `target`, given the
 * shards moves may go to and its latest move (if any).
 */
export function decideMove(
  current: string,
  target: string,
  targets: readonly string[],
  latest: MoveState | null,
): MoveDecision {
  if (!targets.includes(target)) return { kind: "unknown_shard" };
  if (latest && latest.status !== "done" && latest.status !== "aborted") {
    return latest.toShard === target
      ? { kind: "same_move" }
      : { kind: "other_move", to: latest.toShard };
  }
  if (current === target) return { kind: "already_there" };
  return { kind: "start" };
}

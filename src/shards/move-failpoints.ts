/**
 * The failpoints of a move (src/platform/failpoints.ts), one between every two
 * steps and one inside each chunked loop, so a test can stop a move anywhere
 * and prove it resumes. Each is passed the workspace id (the copy's and the
 * clean-up's, the table's name) as its detail.
 */
export const MOVE_FAILPOINTS = {
  /** Writes paused on the source (placement `moving_out`). */
  paused: "shards.move.paused",
  /** Leftovers of an earlier attempt deleted from the target. */
  cleared: "shards.move.cleared",
  /** A chunk inserted on the target, its cursor not yet recorded. */
  copyChunk: "shards.move.copy.chunk",
  /** Every table copied, not yet verified. */
  copied: "shards.move.copied",
  /** Row counts equal on both sides, the switch not yet recorded. */
  verified: "shards.move.verified",
  /** The source closed (`moved`), the target not yet open. */
  sourceClosed: "shards.move.source_closed",
  /** The target open, the directory not yet switched. */
  targetOpen: "shards.move.target_open",
  /** The directory switched, nothing cleaned yet. */
  switched: "shards.move.switched",
  /** A chunk deleted from the source, its cursor not yet recorded. */
  cleanChunk: "shards.move.clean.chunk",
  /** Every source row deleted, the move not yet recorded done. */
  cleaned: "shards.move.cleaned",
} as const;

export const MOVE_FAILPOINT_NAMES = Object.values(MOVE_FAILPOINTS);

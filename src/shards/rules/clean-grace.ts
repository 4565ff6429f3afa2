/**
 * How long the source's rows stay after the switch before the clean-up deletes
 * them, unless MOVE_CLEAN_GRACE_MS says otherwise. A lone read checks the
 * workspace's placement beside its query, not in one transaction with it; with
 * the deletes this far behind the switch, a read whose check still saw the
 * workspace there is never answered from half-deleted rows, whichever replica
 * served it.
 */
export const CLEAN_GRACE_MS = 30_000;

/** The grace a setting asks for: a whole number of milliseconds, else the default. */
export function cleanGrace(setting: string | undefined): number {
  const ms = Number(setting);
  return setting !== undefined && setting !== "" && Number.isInteger(ms) && ms >= 0
    ? ms
    : CLEAN_GRACE_MS;
}

/**
 * When the clean-up of a switched move may start: null when it may go on now
 * (its grace is over, or it already started deleting: `tableIndex` > 0).
 * `updatedAt` is when the move was last recorded: the switch, or a failed run.
 */
export function cleanWaitsUntil(
  move: { tableIndex: number; updatedAt: number },
  graceMs: number,
  now: number,
): number | null {
  if (move.tableIndex > 0) return null;
  const from = move.updatedAt + graceMs;
  return now < from ? from : null;
}

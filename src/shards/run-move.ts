import { createDb, type Database } from "../db/client";
import { instrumentD1 } from "../db/instrumented-d1";
import { DIRECTORY, forgetPlacement, placingDb } from "../db/shards";
import type { Env } from "../platform/env";
import { failpoint } from "../platform/failpoints";
import { MOVE_FAILPOINTS as FP } from "./move-failpoints";
import {
  latestMove,
  type MoveRow,
  recordCursor,
  recordFailure,
  recordStatus,
  switchDirectory,
} from "./queries/moves";
import { placementHere, setPlacement } from "./queries/placement";
import { countRows, deleteChunk, insertJson, readChunk } from "./queries/rows";
import { cellOf, packRows } from "./rules/chunks";
import { cleanGrace, cleanWaitsUntil } from "./rules/clean-grace";
import { MOVED_TABLES, type TenantTable } from "./rules/tables";
import { checkKeptKeys, KeysTaken } from "./kept-keys";

/** Rows read from the source per chunk (then packed into JSON statements of ~90 KB). */
const COPY_ROWS = 500;
/** Rows deleted per statement in a clean-up. */
const DELETE_ROWS = 500;
/** How long one run goes on before it hands over to the next (a fresh alarm, a fresh CPU budget). */
const RUN_BUDGET_MS = 15_000;

/** Failed runs of a copy before the move is given up (the source reopened, writes back on). */
const MAX_COPY_ATTEMPTS = 10;

/** The clean-up's order: children first, the workspace's own row last. */
const REVERSED = [...MOVED_TABLES].reverse();

/** A move that cannot succeed as it stands: it is given up, the source reopened as it was. */
class MoveRefused extends Error {}

export type RunOutcome = "done" | "aborted" | "more" | "none" | { at: number };

/**
 * Runs a workspace's move from the step the directory recorded, until it is
 * done or `budgetMs` passed ("more": run again). Every step is safe to repeat:
 * a run that crashes anywhere is resumed by the next from the last recorded
 * cursor. Never two runs at once for one workspace: the workspace's
 * `ShardMover` object is the only caller outside the tests.
 */
export async function runMove(
  env: Env,
  workspaceId: string,
  budgetMs = RUN_BUDGET_MS,
): Promise<RunOutcome> {
  const directory = createDb(instrumentD1(env.DB));
  const deadline = Date.now() + budgetMs;
  try {
    for (;;) {
      const move = await latestMove(directory, workspaceId);
      if (!move) return "none";
      if (move.status === "done" || move.status === "aborted") return move.status;
      if (Date.now() > deadline) return "more";
      const steps = new MoveSteps(env, directory, move, deadline);
      if (move.status === "copying") await steps.copy();
      else if (move.status === "switching") await steps.switch();
      else {
        const grace = cleanGrace(env.MOVE_CLEAN_GRACE_MS);
        const waits = cleanWaitsUntil(move, grace, Date.now());
        if (waits !== null) return { at: waits };
        await steps.clean();
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordFailure(directory, workspaceId, message).catch(() => undefined);
    // A copy that keeps failing would keep the workspace's writes paused: give it up (safe
    // before the switch: the source is whole) and let the operator try again.
    const move = await latestMove(directory, workspaceId).catch(() => null);
    if (move?.status === "copying" && move.attempts >= MAX_COPY_ATTEMPTS) {
      await new MoveSteps(env, directory, move, Date.now()).giveUp(message);
      return "aborted";
    }
    throw error;
  }
}

class MoveSteps {
  private readonly source: Database;
  private readonly target: Database;
  private readonly ws: string;

  constructor(
    env: Env,
    private readonly directory: Database,
    private readonly move: MoveRow,
    private readonly deadline: number,
  ) {
    this.source = placingDb(env, move.fromShard);
    this.target = placingDb(env, move.toShard);
    this.ws = move.workspaceId;
  }

  /** Steps 1–3: writes paused, the copy chunk by chunk, the counts compared; then `switching`. */
  async copy(): Promise<void> {
    const { ws } = this;
    // Open here while the copy is under way: only a give-up that crashed before recording
    // itself reopens it, and writes may have landed since; the copy starts over.
    const reopened =
      (this.move.tableIndex > 0 || this.move.lastRowid > 0) &&
      (await placementHere(this.source, ws)) === "open";
    // Repeated on every run: the request that recorded the move may have died before it.
    if (!(await setPlacement(this.source, ws, "moving_out", ["open", "moving_out"]))) {
      throw new Error(
        `move: workspace ${ws} is neither open nor moving out on ${this.move.fromShard}`,
      );
    }
    failpoint(FP.paused, ws);
    try {
      await checkKeptKeys(this.source, this.target, ws);
      let cursor = reopened
        ? { tableIndex: 0, lastRowid: 0, copiedRows: 0 }
        : {
            tableIndex: this.move.tableIndex,
            lastRowid: this.move.lastRowid,
            copiedRows: this.move.copiedRows,
          };
      if (cursor.tableIndex === 0 && cursor.lastRowid === 0) {
        await this.clearTarget();
        failpoint(FP.cleared, ws);
      }
      const resumed = MOVED_TABLES[cursor.tableIndex];
      if (resumed?.renumbered) {
        // Renumbered rows have no key to recognise a second copy by: a run that finds the
        // cursor in such a table (a crash may have come after a chunk went in and before its
        // cursor was recorded) copies it again from its start.
        while ((await deleteChunk(this.target, resumed, ws, DELETE_ROWS)) > 0);
        cursor = { ...cursor, lastRowid: 0 };
      }
      while (cursor.tableIndex < MOVED_TABLES.length) {
        if (Date.now() > this.deadline) return;
        cursor = await this.copyChunk(cursor);
        await recordCursor(this.directory, ws, cursor);
      }
      failpoint(FP.copied, ws);
      // The count so far may include a chunk copied twice; the verified count is exact.
      const copiedRows = await this.verify();
      await recordCursor(this.directory, ws, { ...cursor, copiedRows });
    } catch (error) {
      if (error instanceof MoveRefused || error instanceof KeysTaken) {
        return this.abort(error.message);
      }
      throw error;
    }
    failpoint(FP.verified, ws);
    await recordStatus(this.directory, ws, "switching");
  }

  private async copyChunk(cursor: { tableIndex: number; lastRowid: number; copiedRows: number }) {
    const table = MOVED_TABLES[cursor.tableIndex] as TenantTable;
    const rows = await readChunk(this.source, table, this.ws, cursor.lastRowid, COPY_ROWS);
    const [first] = rows;
    if (!first) return { ...cursor, tableIndex: cursor.tableIndex + 1, lastRowid: 0 };
    const columns = Object.keys(first).filter(
      (c) => c !== "__rowid" && !(table.renumbered && c === "id"),
    );
    const cells = rows.map((row) => {
      // The workspace's own row arrives closed: nothing is answered there before the switch.
      const values =
        table.scope.kind === "id"
          ? { ...row, placement: "moving_in", shard: this.move.toShard }
          : row;
      return columns.map((c) => cellOf(table.name, c, values[c]));
    });
    const packed = packRows(cells);
    await insertJson(this.target, table, columns, packed.statements);
    failpoint(FP.copyChunk, table.name);
    const last = rows[packed.rows - 1] ?? first;
    return {
      tableIndex: cursor.tableIndex,
      lastRowid: last.__rowid,
      copiedRows: cursor.copiedRows + packed.rows,
    };
  }

  /** Step 3: every table holds as many of the workspace's rows on the target as on the source. */
  private async verify(): Promise<number> {
    const [from, to] = await Promise.all([
      countRows(this.source, MOVED_TABLES, this.ws),
      countRows(this.target, MOVED_TABLES, this.ws),
    ]);
    const differ = MOVED_TABLES.flatMap((table, i) =>
      from[i] === to[i] ? [] : [`${table.name}: ${from[i]} on the source, ${to[i]} on the target`],
    );
    // The source is paused and the target closed: a difference is no race but a row the
    // target refused (a unique value another workspace holds there), and copying again
    // would not change it.
    if (differ.length > 0) throw new MoveRefused(`move: row counts differ (${differ.join("; ")})`);
    return from.reduce((sum, n) => sum + n, 0);
  }

  /** Step 4: the source closed, the target opened, the directory pointed at the target. */
  async switch(): Promise<void> {
    const { ws } = this;
    if (!(await setPlacement(this.source, ws, "moved", ["moving_out", "moved"]))) {
      throw new Error(`move: workspace ${ws} cannot be closed on ${this.move.fromShard}`);
    }
    failpoint(FP.sourceClosed, ws);
    if (!(await setPlacement(this.target, ws, "open", ["moving_in", "open"]))) {
      throw new Error(`move: workspace ${ws} has no copy to open on ${this.move.toShard}`);
    }
    failpoint(FP.targetOpen, ws);
    await switchDirectory(this.directory, ws, this.move.toShard);
    forgetPlacement(ws);
    failpoint(FP.switched, ws);
  }

  /** Steps 5–6: the source's rows deleted, children first, the workspace's row last; then `done`. */
  async clean(): Promise<void> {
    const { ws } = this;
    let index = this.move.tableIndex;
    while (index < REVERSED.length) {
      if (Date.now() > this.deadline) return;
      const table = REVERSED[index] as TenantTable;
      // A workspace from before the shards: its row in the directory is the directory's own.
      const kept = table.scope.kind === "id" && this.move.fromShard === DIRECTORY;
      if (!kept) {
        while ((await deleteChunk(this.source, table, ws, DELETE_ROWS)) > 0) {
          failpoint(FP.cleanChunk, table.name);
          if (Date.now() > this.deadline) return;
        }
      }
      index += 1;
      await recordCursor(this.directory, ws, { ...this.cursorOf(), tableIndex: index });
    }
    failpoint(FP.cleaned, ws);
    await recordStatus(this.directory, ws, "done");
  }

  private cursorOf() {
    return { tableIndex: this.move.tableIndex, lastRowid: 0, copiedRows: this.move.copiedRows };
  }

  /**
   * Deletes what an earlier, given-up attempt left of the workspace on the
   * target. Never where the workspace is open: that would be its only copy.
   */
  private async clearTarget(): Promise<void> {
    const placement = await placementHere(this.target, this.ws);
    if (placement === "open") {
      throw new Error(`move: workspace ${this.ws} is open on ${this.move.toShard} already`);
    }
    for (const table of REVERSED) {
      while ((await deleteChunk(this.target, table, this.ws, DELETE_ROWS)) > 0);
    }
  }

  /**
   * Gives the move up before its switch: the source, whole and unchanged, opens
   * again; then the move is recorded aborted, and the target's partial copy deleted.
   */
  /** Gives the move up after too many failed runs of its copy. */
  giveUp(reason: string): Promise<void> {
    return this.abort(`move: given up after ${MAX_COPY_ATTEMPTS} failed runs (${reason})`);
  }

  private async abort(reason: string): Promise<void> {
    await setPlacement(this.source, this.ws, "open", ["moving_out"]);
    await recordStatus(this.directory, this.ws, "aborted", Date.now(), reason);
    forgetPlacement(this.ws);
    await this.clearTarget().catch(() => undefined);
  }
}

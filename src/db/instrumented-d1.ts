import { failpoint } from "../platform/failpoints";
import type { WriteGate } from "../platform/write-gate";
import {
  D1_MAX_BATCH_STATEMENTS,
  D1_MAX_PARAMS,
  TooManyParametersError,
  TooManyStatementsError,
} from "./limits";
import { D1Counter } from "./d1-counter";

export { D1Counter } from "./d1-counter";

/**
 * Wraps the D1 binding for one request (or one background job):
 * - counts its round trips as latency feels them (`HopCounter`: calls in
 *   flight together are one hop; a batch is one call however many statements
 *   it carries), and the statements it sends (Cloudflare counts queries per
 *   invocation), reported in Server-Timing;
 * - refuses any statement over D1's 100 bound parameters, naming it, and any
 *   batch over 100 statements, before sending either;
 * - makes every write wait for the request's `WriteGate`, so reads may run
 *   while the API key is still being checked but nothing is written before
 *   it passed.
 */

const RAW = Symbol("raw statement");
const QUERY = Symbol("query text");

type Wrapped = D1PreparedStatement & { [RAW]: D1PreparedStatement; [QUERY]: string };

/** The D1 limit, refused here with the statement named, in every environment. */
function checkParams(query: string, count: number) {
  if (count > D1_MAX_PARAMS) throw new TooManyParametersError(query, count);
}

/** Only plain SELECTs (and WITH … SELECT) read; anything else may write. */
export const isRead = (query: string) =>
  /^\s*(select|with)\b/i.test(query) && !/\b(insert|update|delete|replace)\s/i.test(query);

const queryOf = (s: D1PreparedStatement) => (s as Partial<Wrapped>)[QUERY] ?? "";

function wrapStatement(
  statement: D1PreparedStatement,
  hops: D1Counter,
  gate: WriteGate | undefined,
  query: string,
  checked: PlacementChecked | undefined,
): Wrapped {
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    if (gate && !isRead(query)) await gate.pass();
    hops.statements += 1;
    return hops.track(run);
  };
  const calls = checked
    ? checkedCalls(statement, query, timed, hops, checked)
    : plainCalls(statement, timed, hops);
  const wrapped = {
    [RAW]: statement,
    [QUERY]: query,
    bind: (...values: unknown[]) => {
      checkParams(query, values.length);
      return wrapStatement(statement.bind(...values), hops, gate, query, checked);
    },
    ...calls,
  };
  return wrapped as unknown as Wrapped;
}

type Calls = Pick<D1PreparedStatement, "first" | "run" | "all" | "raw">;

/** A statement's calls, counted and timed as one call of D1 each. */
function plainCalls(
  statement: D1PreparedStatement,
  timed: <T>(run: () => Promise<T>) => Promise<T>,
  hops: D1Counter,
): Calls {
  const calls = {
    first: (column?: string) =>
      timed(() => (column === undefined ? statement.first() : statement.first(column))).then((r) =>
        hops.returnedRow(r),
      ),
    run: () => timed(() => statement.run()).then((r) => hops.read(r)),
    all: () => timed(() => statement.all()).then((r) => hops.read(r)),
    raw: (options?: { columnNames?: boolean }) =>
      timed(() =>
        options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw(),
      ).then((r) => hops.returnedRows(r)),
  };
  return calls as unknown as Calls;
}

/**
 * A shard's handle for one workspace: every call carries the placement check
 * (`placementChecked`), so the workspace is never read or written on a shard it
 * does not live on, whatever a cache or a stale isolate believed.
 */
export interface Tenancy {
  workspaceId: string;
  /** Called when the check refuses: whoever remembered this shard for the workspace forgets it. */
  onRefused?: () => void;
}

export function instrumentD1(
  db: D1Database | D1DatabaseSession,
  hops: D1Counter = new D1Counter(),
  gate?: WriteGate,
  tenancy?: Tenancy,
): D1Database {
  const checked = tenancy ? placementChecked(db, tenancy, hops) : undefined;
  const wrapped = {
    prepare: (query: string) => wrapStatement(db.prepare(query), hops, gate, query, checked),
    batch: async (statements: D1PreparedStatement[]) => {
      // Refused whole before anything is sent: a batch is one transaction, never half-done.
      if (statements.length > D1_MAX_BATCH_STATEMENTS)
        throw new TooManyStatementsError(statements.length);
      const raw = statements.map((s) => (s as Partial<Wrapped>)[RAW] ?? s);
      if (gate && !statements.every((s) => isRead(queryOf(s)))) await gate.pass();
      hops.statements += statements.length;
      return hops.track(async () => {
        // Fault tests: the connection is lost before the batch reaches D1 (it never commits,
        // but the Worker cannot tell that from a lost answer).
        failpoint("d1.batch.lost", statements.map(queryOf).join(";\n"));
        const read = statements.every((s) => isRead(queryOf(s)));
        const results = checked ? await checked.batch(raw, read) : await db.batch(raw);
        for (const result of results) hops.read(result);
        // Fault tests: the batch committed, but the Worker never hears of it.
        failpoint("d1.batch.committed", statements.map(queryOf).join(";\n"));
        return results;
      });
    },
    exec: async (query: string) => {
      // Unchecked SQL text would bypass the placement check: a workspace's shard has no exec.
      if (tenancy || !("exec" in db)) throw new Error("exec is not available on a shard handle");
      if (gate) await gate.pass();
      hops.statements += 1;
      return hops.track(() => db.exec(query));
    },
    dump: () => {
      throw new Error("dump is not available through the instrumented handle");
    },
    withSession: () => {
      throw new Error("sessions are opened on the binding, before instrumenting");
    },
  };
  return wrapped as unknown as D1Database;
}

/** Thrown when a shard's placement check refuses a call: the workspace does not live (open) here. */
export class WorkspaceNotHereError extends Error {
  constructor(
    readonly workspaceId: string,
    cause?: unknown,
  ) {
    super(`workspace_not_here: workspace ${workspaceId} is not open on this shard`, { cause });
    this.name = "WorkspaceNotHereError";
  }
}

const WRITE_FENCE =
  "INSERT INTO placement_fence (workspace_id) SELECT ?1 WHERE NOT EXISTS " +
  "(SELECT 1 FROM workspaces WHERE id = ?1 AND placement = 'open')";
const READ_FENCE = "SELECT placement FROM workspaces WHERE id = ?1";

/** A statement this layer adds to a shard's calls (the placement check), not the caller's. */
export const isPlacementCheck = (query: string) => query === WRITE_FENCE || query === READ_FENCE;

/** Where reads are answered; writes only where `open` (the fence's condition below). */
const READABLE = new Set(["open", "moving_out"]);

interface PlacementChecked {
  /** Runs `statements` as one batch behind the check; answers their results only. */
  batch(statements: D1PreparedStatement[], read: boolean): Promise<D1Result[]>;
  /** A lone read: the statement and the check together (one round trip, both in flight). */
  read<T>(run: () => Promise<T>): Promise<T>;
}

/**
 * The placement check of a shard handle. A write batch starts with an INSERT into
 * `placement_fence` (a `CHECK(0)` table) that selects a row only when the workspace
 * is not `open` here: the batch then fails whole, inside the transaction that would
 * have written, so no write lands on a shard the workspace left or is leaving. A read
 * batch starts with the workspace's row and is refused unless it is readable here.
 * The check is one more statement of the same call (no round trip); it is counted
 * apart (`placementChecks`), so statement counts stay the request's own.
 */
function placementChecked(
  db: D1Database | D1DatabaseSession,
  { workspaceId, onRefused }: Tenancy,
  hops: D1Counter,
): PlacementChecked {
  const refused = (cause?: unknown) => {
    onRefused?.();
    return new WorkspaceNotHereError(workspaceId, cause);
  };
  const writeFence = () => db.prepare(WRITE_FENCE).bind(workspaceId);
  const readFence = () => db.prepare(READ_FENCE).bind(workspaceId);
  const assertReadable = (result: D1Result | undefined) => {
    const row = result?.results?.[0] as { placement?: string } | undefined;
    if (!row?.placement || !READABLE.has(row.placement)) throw refused();
  };
  return {
    async batch(statements, read) {
      hops.placementChecks += 1;
      try {
        const [fence, ...results] = await db.batch([
          read ? readFence() : writeFence(),
          ...statements,
        ]);
        if (read) assertReadable(fence);
        return results;
      } catch (error) {
        if (!read && isFenceFailure(error)) throw refused(error);
        throw error;
      }
    },
    async read(run) {
      hops.placementChecks += 1;
      const [fence, result] = await Promise.all([readFence().all(), run()]);
      assertReadable(fence);
      return result;
    },
  };
}

function isFenceFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message.includes("workspace_not_here")) return true;
    current = current.cause;
  }
  return false;
}

/**
 * A statement of a shard handle: a read runs beside its placement check; a
 * write runs as a batch behind the fence (its answer reshaped to what the
 * single call returns: drizzle's `raw()` wants rows as arrays).
 */
function checkedCalls(
  statement: D1PreparedStatement,
  query: string,
  timed: <T>(run: () => Promise<T>) => Promise<T>,
  hops: D1Counter,
  checked: PlacementChecked,
): Calls {
  const read = isRead(query);
  const written = () =>
    timed(async () => {
      const [result] = await checked.batch([statement], false);
      if (!result) throw new Error("D1 answered a batch of one with no result");
      return result;
    });
  const calls = {
    first: (column?: string) =>
      (read
        ? timed(() =>
            checked.read(() =>
              column === undefined ? statement.first() : statement.first(column),
            ),
          )
        : written().then((r) => {
            const row = (r.results[0] ?? null) as Record<string, unknown> | null;
            return column === undefined || row === null ? row : row[column];
          })
      ).then((r) => hops.returnedRow(r)),
    run: () =>
      (read ? timed(() => checked.read(() => statement.run())) : written()).then((r) =>
        hops.read(r),
      ),
    all: () =>
      (read ? timed(() => checked.read(() => statement.all())) : written()).then((r) =>
        hops.read(r),
      ),
    raw: (options?: { columnNames?: boolean }) =>
      (read
        ? timed(() =>
            checked.read(() =>
              options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw(),
            ),
          )
        : written().then((r) => {
            const rows = r.results as Record<string, unknown>[];
            const values = rows.map((row) => Object.values(row));
            return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
          })
      ).then((r) => hops.returnedRows(r)),
  };
  return calls as unknown as Calls;
}

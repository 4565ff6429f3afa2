import { failpoint } from "../lib/failpoints";
import { TooManyParametersError } from "./bounded";
import { D1_MAX_PARAMS } from "./limits";

/**
 * Wraps the D1 binding so each request can report how many round trips it made
 * and how long they took (Server-Timing). A `batch` is one round trip however
 * many statements it carries; that is the number the 3-round-trip budget counts.
 */
export interface D1Metrics {
  roundTrips: number;
  durationMs: number;
}

const RAW = Symbol("raw statement");

/** The D1 limit, refused here with the statement named, in every environment. */
function checkParams(query: string, count: number) {
  if (count > D1_MAX_PARAMS) throw new TooManyParametersError(query, count);
}

const QUERY = Symbol("query text");

type Wrapped = D1PreparedStatement & { [RAW]: D1PreparedStatement; [QUERY]: string };

function wrapStatement(statement: D1PreparedStatement, metrics: D1Metrics, query: string): Wrapped {
  async function timed<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    metrics.roundTrips += 1;
    try {
      return await run();
    } finally {
      metrics.durationMs += performance.now() - started;
    }
  }
  const wrapped = {
    [RAW]: statement,
    [QUERY]: query,
    bind: (...values: unknown[]) => {
      checkParams(query, values.length);
      return wrapStatement(statement.bind(...values), metrics, query);
    },
    first: (column?: string) =>
      timed(() => (column === undefined ? statement.first() : statement.first(column))),
    run: () => timed(() => statement.run()),
    all: () => timed(() => statement.all()),
    raw: (options?: { columnNames?: boolean }) =>
      timed(() => (options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw())),
  };
  return wrapped as unknown as Wrapped;
}

export function instrumentD1(db: D1Database, metrics: D1Metrics): D1Database {
  const wrapped = {
    prepare: (query: string) => wrapStatement(db.prepare(query), metrics, query),
    batch: async (statements: D1PreparedStatement[]) => {
      const raw = statements.map((s) => (s as Partial<Wrapped>)[RAW] ?? s);
      const started = performance.now();
      metrics.roundTrips += 1;
      try {
        const results = await db.batch(raw);
        // Fault tests: the batch committed, but the Worker never hears of it.
        failpoint(
          "d1.batch.committed",
          statements.map((s) => (s as Partial<Wrapped>)[QUERY] ?? "").join(";\n"),
        );
        return results;
      } finally {
        metrics.durationMs += performance.now() - started;
      }
    },
    exec: (query: string) => {
      metrics.roundTrips += 1;
      return db.exec(query);
    },
    dump: () => db.dump(),
    withSession: (constraint?: string) => db.withSession(constraint),
  };
  return wrapped as unknown as D1Database;
}

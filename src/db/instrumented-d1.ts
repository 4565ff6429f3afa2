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
): Wrapped {
  const timed = async <T>(run: () => Promise<T>): Promise<T> => {
    if (gate && !isRead(query)) await gate.pass();
    hops.statements += 1;
    return hops.track(run);
  };
  const wrapped = {
    [RAW]: statement,
    [QUERY]: query,
    bind: (...values: unknown[]) => {
      checkParams(query, values.length);
      return wrapStatement(statement.bind(...values), hops, gate, query);
    },
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
  return wrapped as unknown as Wrapped;
}

export function instrumentD1(
  db: D1Database,
  hops: D1Counter = new D1Counter(),
  gate?: WriteGate,
): D1Database {
  const wrapped = {
    prepare: (query: string) => wrapStatement(db.prepare(query), hops, gate, query),
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
        const results = await db.batch(raw);
        for (const result of results) hops.read(result);
        // Fault tests: the batch committed, but the Worker never hears of it.
        failpoint("d1.batch.committed", statements.map(queryOf).join(";\n"));
        return results;
      });
    },
    exec: async (query: string) => {
      if (gate) await gate.pass();
      hops.statements += 1;
      return hops.track(() => db.exec(query));
    },
    dump: () => db.dump(),
    withSession: (constraint?: string) => db.withSession(constraint),
  };
  return wrapped as unknown as D1Database;
}

import type { BatchResponse } from "drizzle-orm/batch";
import type { Database } from "./client";
import type { Scope } from "./scope";
import type { Statement } from "./statement";

/**
 * Statements that read one thing, and how their rows become it. Reads of
 * different things go into one batch (one round trip, one snapshot) and come
 * back by name, so no caller decodes a batch's results by position.
 */
export interface Read<A> {
  readonly statements: readonly Statement[];
  readonly parse: (rows: readonly unknown[]) => A;
}

/**
 * A read whose parser sees its own statements' rows with their types. The
 * batch hands back rows as `unknown`; this is the one place that names their
 * types again, each read's rows being exactly the results of its statements.
 */
export const read = <const T extends readonly Statement[], A>(
  statements: T,
  parse: (rows: BatchResponse<T>) => A,
): Read<A> => ({ statements, parse: (rows) => parse(rows as BatchResponse<T>) });

/**
 * An operation's own reads: required when its plan needs their value, optional
 * only when the plan takes `undefined` (then nothing is read).
 */
export type ReadsOf<R> = undefined extends R
  ? { reads?: (scope: Scope) => Read<R> }
  : { reads: (scope: Scope) => Read<R> };

/** A read of nothing (no statements), for an optional part of a batch. */
export const nothing = <A>(value: A): Read<A> => ({ statements: [], parse: () => value });

type Results<R extends Record<string, Read<unknown>>> = {
  [K in keyof R]: R[K] extends Read<infer A> ? A : never;
};

/** Reads of several things as one read, whose value names each part. */
export function named<R extends Record<string, Read<unknown>>>(reads: R): Read<Results<R>> {
  const parts = Object.entries(reads);
  return {
    statements: parts.flatMap(([, r]) => r.statements),
    parse: (rows) => {
      const results: Record<string, unknown> = {};
      let offset = 0;
      for (const [name, r] of parts) {
        results[name] = r.parse(rows.slice(offset, offset + r.statements.length));
        offset += r.statements.length;
      }
      return results as Results<R>;
    },
  };
}

/** Runs a read as one batch (one round trip); nothing to read, nothing sent. */
export async function run<A>(db: Database, r: Read<A>): Promise<A> {
  const [first, ...rest] = r.statements;
  return r.parse(first ? await db.batch([first, ...rest]) : []);
}

/** Runs named reads as one batch; each comes back under its name. */
export const readTogether = <R extends Record<string, Read<unknown>>>(db: Database, reads: R) =>
  run(db, named(reads));

import type { Effect, EffectSink } from "../platform/effects";
import type { Statement } from "./statement";

/** What a statement produces, from its own result (its RETURNING rows) or known up front. */
type Produces = readonly Effect[] | ((result: unknown) => readonly Effect[]);

const produced = new WeakMap<object, Produces>();

/** The sink each collecting database hands its committed batches' effects to. */
const sinks = new WeakMap<object, EffectSink>();

/**
 * Marks a statement as producing `effects` once its batch commits. Builders
 * of statements that insert outbox events or messages, or free calendar
 * time, mark theirs; the request's database hands them to its sink when the
 * batch succeeded (only through `db.batch`/`runBatch`: a marked statement
 * awaited on its own hands nothing over, and the cron sweeps find it).
 */
export function producing<S extends Statement>(statement: S, effects: Produces): S {
  produced.set(statement, effects);
  return statement;
}

/** The effects a committed batch's statements produced, given the batch's results. */
export function effectsOf(statements: readonly Statement[], results: readonly unknown[]): Effect[] {
  const effects: Effect[] = [];
  statements.forEach((statement, i) => {
    const p = produced.get(statement);
    if (p) effects.push(...(typeof p === "function" ? p(results[i]) : p));
  });
  return effects;
}

/**
 * A database whose committed batches hand their statements' effects to
 * `sink`. Its `batch` is wrapped in place: a batch that throws (refused,
 * rolled back, lost) adds nothing.
 */
export function collectingEffects<D extends { batch: (statements: never) => Promise<unknown> }>(
  db: D,
  sink: EffectSink,
): D {
  sinks.set(db, sink);
  const batch = db.batch.bind(db) as unknown as (s: readonly Statement[]) => Promise<unknown[]>;
  const wrapped = async (statements: readonly Statement[]) => {
    const results = await batch(statements);
    sink.add(effectsOf(statements, results));
    return results;
  };
  Object.assign(db, { batch: wrapped });
  return db;
}

/**
 * A batch whose answer was lost but which was found committed (the calendar
 * client settles such a write against D1): hands over what its statements
 * said they produce up front (events, messages). What only the lost answer
 * could tell (freed time, a capped message's status from RETURNING) is left
 * to the cron sweeps.
 */
export function committedWithoutAnswer(db: object, statements: readonly Statement[]): void {
  sinks.get(db)?.add(effectsOf(statements, []));
}

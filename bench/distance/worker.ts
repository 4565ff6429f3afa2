/**
 * Bench only (`npm run bench -- --distance`): the Worker as deployed, with a
 * fixed delay before every call to D1 and to a calendar object, so a request's
 * latency shows how many sequential hops it makes, as a client far from the
 * database would feel them. The production entry (src/index.ts) is untouched:
 * `wrangler dev` runs this file instead, with the same wrangler.toml: the same
 * Durable Object bindings and migrations, and (below) the same exported classes.
 */
import worker from "../../src/index";
import { Calendar as BaseCalendar } from "../../src/calendar/object/calendar";
import type { Env } from "../../src/platform/env";
import { benchReportsHook } from "./reports-hook";

/** The delay, from `--var DISTANCE_MS:<ms>` (bench/distance.ts sets it); 25 ms by default. */
let distanceMs = 25;

const far = () => new Promise<void>((resolve) => setTimeout(resolve, distanceMs));

const RAW = new WeakMap<object, D1PreparedStatement>();

function farStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const wrapped = {
    bind: (...values: unknown[]) => farStatement(statement.bind(...values)),
    first: async (column?: string) => {
      await far();
      return column === undefined ? statement.first() : statement.first(column);
    },
    run: async () => (await far(), statement.run()),
    all: async () => (await far(), statement.all()),
    raw: async (options?: { columnNames?: boolean }) => {
      await far();
      return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
    },
  } as unknown as D1PreparedStatement;
  RAW.set(wrapped, statement);
  return wrapped;
}

function farD1(db: D1Database): D1Database {
  return {
    prepare: (query: string) => farStatement(db.prepare(query)),
    batch: async (statements: D1PreparedStatement[]) => {
      await far();
      return db.batch(statements.map((s) => RAW.get(s) ?? s));
    },
    exec: async (query: string) => (await far(), db.exec(query)),
    dump: () => db.dump(),
    withSession: (constraint?: string) => db.withSession(constraint),
  } as D1Database;
}

/** Every method of a calendar stub waits the distance first (RPC calls and fetch alike). */
function farStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function" || prop === "then") return value;
      // Called as a method of the real stub: an RPC stub must be its own receiver.
      return async (...args: unknown[]) => {
        await far();
        return (target as Record<string | symbol, (...a: unknown[]) => unknown>)[prop]?.(...args);
      };
    },
  });
}

function farNamespace(ns: DurableObjectNamespace): DurableObjectNamespace {
  return new Proxy(ns, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "get" || prop === "getByName") {
        return (...args: unknown[]) =>
          farStub((value as (...a: unknown[]) => object).apply(target, args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const cache = new WeakMap<object, Env>();

function farEnv(env: Env): Env {
  const configured = Number((env as unknown as { DISTANCE_MS?: string }).DISTANCE_MS);
  if (Number.isFinite(configured) && configured >= 0) distanceMs = configured;
  let wrapped = cache.get(env);
  if (!wrapped) {
    wrapped = {
      ...env,
      DB: farD1(env.DB),
      CALENDARS: farNamespace(
        env.CALENDARS as unknown as DurableObjectNamespace,
      ) as unknown as Env["CALENDARS"],
    };
    cache.set(env, wrapped);
  }
  return wrapped;
}

/** The calendar object's own D1 calls (its first load, settlements) are far too. */
export class Calendar extends BaseCalendar {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, farEnv(env));
  }
}

/**
 * Every other class the Worker exports (its Durable Objects, the webhook sender's entrypoint)
 * as it is, whatever src/index.ts lists: a class wrangler.toml binds and this file lacked would
 * keep `wrangler dev` from ever answering. The `Calendar` declared above shadows the one this
 * re-exports (a module's own export wins over `export *`), and `export *` never carries the
 * default export.
 */
export * from "../../src/index";

export default {
  // The reports bench's SQL (./reports-hook.ts) goes to D1 directly, without the delay.
  fetch: async (request, env, ctx) =>
    (await benchReportsHook(request, env)) ?? worker.fetch(request, farEnv(env), ctx),
  queue: (batch, env) => worker.queue(batch, farEnv(env)),
  scheduled: (controller, env, ctx) => worker.scheduled(controller, farEnv(env), ctx),
} satisfies ExportedHandler<Env, never>;

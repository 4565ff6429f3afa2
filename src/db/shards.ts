import type { Env } from "../platform/env";
import type { WriteGate } from "../platform/write-gate";
import { createDb, type Database } from "./client";
import { eq } from "drizzle-orm";
import { D1Counter, instrumentD1 } from "./instrumented-d1";
import { workspaces } from "./schema";

/** The directory's own name as a shard: where workspaces from before shards live. */
export const DIRECTORY = "DB";

const SHARD_BINDING = /^SHARD_(\d+)$/;

/**
 * The shards new workspaces go to: every `SHARD_<n>` binding, in number order.
 * A deployment without any keeps every workspace in the directory itself.
 */
export function shardNames(env: Env): string[] {
  const names = Object.keys(env)
    .map((name) => SHARD_BINDING.exec(name))
    .filter((m): m is RegExpExecArray => m !== null && isD1((env as never)[m[0]]))
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => m[0]);
  return names.length > 0 ? names : [DIRECTORY];
}

/** Every database that may hold workspace rows: the directory (older workspaces), then the shards. */
export function allShards(env: Env): string[] {
  const shards = shardNames(env);
  return shards.includes(DIRECTORY) ? shards : [DIRECTORY, ...shards];
}

const isShardName = (env: Env, name: string): boolean => allShards(env).includes(name);

/** The binding of a shard by name; a name the deployment does not have is a bug (or a stale row). */
export function shardBinding(env: Env, name: string): D1Database {
  const binding = (env as unknown as Record<string, unknown>)[name];
  if (!isShardName(env, name) || !isD1(binding)) throw new Error(`no D1 shard named ${name}`);
  return binding;
}

function isD1(value: unknown): value is D1Database {
  return typeof value === "object" && value !== null && "prepare" in value && "batch" in value;
}

/** How a shard handle reads: D1's Sessions API constraint, or a bookmark to read at least as fresh as. */
export type SessionStart = "first-primary" | "first-unconstrained" | { bookmark: string };

export interface ShardHandle {
  db: Database;
  /** The same handle as raw D1, for callers that write SQL text. */
  d1: D1Database;
  shard: string;
  /** The session's latest bookmark (null when it made no call), prefixed with the shard's name. */
  bookmark(): string | null;
}

/**
 * A workspace's handle on its shard: every call carries the placement check
 * (the D1 layer refuses, inside the call, a workspace that is not there), and
 * goes through a D1 session, so reads may be served by a replica no older
 * than the session's bookmark.
 */
export function tenantHandle(
  env: Env,
  shard: string,
  workspaceId: string,
  options: { counter?: D1Counter; gate?: WriteGate; session?: SessionStart } = {},
): ShardHandle {
  const start = options.session ?? "first-primary";
  const session = shardBinding(env, shard).withSession(
    typeof start === "string" ? start : start.bookmark,
  );
  const d1 = instrumentD1(session, options.counter, options.gate, {
    workspaceId,
    // A move switched it (or is under way): the next handle asks the directory again.
    onRefused: () => forgetPlacement(workspaceId),
  });
  return { db: createDb(d1), d1, shard, bookmark: bookmarkOf(shard, session) };
}

/** A session's latest bookmark, named by its shard (null before its first call). */
const bookmarkOf = (shard: string, session: D1DatabaseSession) => () => {
  const bookmark = session.getBookmark();
  return bookmark ? `${shard}.${bookmark}` : null;
};

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

/**
 * The bookmark a client sent back (`D1-Bookmark`), if it is one of this shard's:
 * a bookmark of another shard (the workspace moved since) says nothing here.
 */
export function bookmarkFor(
  shard: string,
  header: string | undefined,
): { bookmark: string } | null {
  const prefix = `${shard}.`;
  if (!header?.startsWith(prefix)) return null;
  const bookmark = header.slice(prefix.length);
  // D1's own shape (three 8-digit and one 32-digit hex part): anything else never reaches D1,
  // which may refuse a malformed bookmark outright instead of reading from the primary.
  return BOOKMARK.test(bookmark) ? { bookmark } : null;
}

/**
 * How a read-only request's session starts: from the client's bookmark of this
 * shard (at least that fresh), else from any replica. A bookmark of another
 * shard means the client wrote where this isolate no longer routes (a move
 * switched, and this isolate remembers the old shard): the primary says so (its
 * placement check refuses), where a lagging replica might still answer old rows.
 */
export function readSessionStart(shard: string, header: string | undefined): SessionStart {
  const here = bookmarkFor(shard, header);
  if (here) return here;
  const dot = header?.indexOf(".") ?? -1;
  const named = dot > 0 ? header?.slice(0, dot) : undefined;
  if (named && (named === DIRECTORY || SHARD_BINDING.test(named))) return "first-primary";
  return "first-unconstrained";
}

/**
 * Which shard a workspace lives on, as the directory says, remembered by this
 * isolate for a short while. A stale answer is safe: the shard's placement
 * check refuses it, the caller forgets it (`forgetPlacement`) and asks again.
 */
const PLACEMENT_TTL_MS = 30_000;
const MAX_PLACEMENTS = 10_000;
const placements = new Map<string, { shard: string; until: number }>();

export function cachedPlacement(workspaceId: string, now = Date.now()): string | undefined {
  const hit = placements.get(workspaceId);
  if (!hit) return undefined;
  if (hit.until <= now) {
    placements.delete(workspaceId);
    return undefined;
  }
  return hit.shard;
}

export function rememberPlacement(workspaceId: string, shard: string, now = Date.now()): void {
  placements.delete(workspaceId);
  placements.set(workspaceId, { shard, until: now + PLACEMENT_TTL_MS });
  if (placements.size > MAX_PLACEMENTS) {
    const oldest = placements.keys().next().value;
    if (oldest !== undefined) placements.delete(oldest);
  }
}

export const forgetPlacement = (workspaceId: string): void => void placements.delete(workspaceId);

/**
 * The directory's answer (one statement, on the caller's counted handle when
 * it has one), remembered; null when no such workspace.
 */
export async function placementOf(
  env: Env,
  workspaceId: string,
  directory: Database = createDb(instrumentD1(env.DB)),
): Promise<string | null> {
  const cached = cachedPlacement(workspaceId);
  if (cached) return cached;
  const [row] = await directory
    .select({ shard: workspaces.shard })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (!row) return null;
  rememberPlacement(workspaceId, row.shard);
  return row.shard;
}

/**
 * A shard's handle with no placement check, for the one write that makes a
 * workspace live there (its creation, a move's copy): the check would refuse
 * a workspace that is not open on the shard yet.
 */
export const placingDb = (
  env: Env,
  shard: string,
  counter: D1Counter = new D1Counter(),
  gate?: WriteGate,
): Database => createDb(instrumentD1(shardBinding(env, shard), counter, gate));

/**
 * `placingDb` in a D1 session on the primary, for a request's write that makes a
 * workspace live on the shard (its creation): the answer names the session's
 * bookmark, so the client's next reads, wherever served, see the new workspace.
 */
export function placingHandle(
  env: Env,
  shard: string,
  counter: D1Counter = new D1Counter(),
  gate?: WriteGate,
): ShardHandle {
  const session = shardBinding(env, shard).withSession("first-primary");
  const d1 = instrumentD1(session, counter, gate);
  return { db: createDb(d1), d1, shard, bookmark: bookmarkOf(shard, session) };
}

/**
 * D1 of one whole shard, for sweeps over every workspace on it (crons). No
 * placement check: a sweep's statements name each row's own workspace, and a
 * row left by a move's clean-up is skipped by the sweeps' own conditions.
 */
export const sweepDb = (env: Env, shard: string, counter: D1Counter = new D1Counter()): Database =>
  createDb(instrumentD1(shardBinding(env, shard), counter));

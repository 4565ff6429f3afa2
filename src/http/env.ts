import type { Database } from "../db/client";
import type { D1Counter } from "../db/d1-counter";
import type { ApiKeyKind, Caller } from "../platform/caller";
import type { Env } from "../platform/env";
import type { WriteGate } from "../platform/write-gate";
import type { UseCaseDeps } from "./deps";
import type { Declaration } from "./operations";

/** Set on every request by the request-context middleware. */
export interface RequestVariables {
  requestId: string;
  /** The directory (workspaces, API keys, moves): what authentication and placement read. */
  directory: Database;
  /**
   * The request's workspace's shard, once the request is routed (`routeTo`: after the
   * key verified, or from the workspace a path or a link names). Unset before.
   */
  db: Database;
  /** The request's D1 use (Server-Timing), for a handle opened outside `routeTo`. */
  d1: D1Counter;
  /** Points `db` at the workspace's shard (through a D1 session, with the placement check). */
  routeTo: (workspaceId: string, shard: string) => Database;
  /** Writes and calendar calls wait on it while the API key is being checked. */
  gate: WriteGate;
  /** Queues a task to start once the answer is ready (calendar confirms). */
  afterResponse: (task: () => Promise<unknown>) => void;
  /** What the answering route declared (its operationId, the keys it takes); unset when none answers. */
  operation?: Declaration;
  /** The API key failed its check after the handler ran: its answer was replaced. */
  refused?: boolean;
}

/** Set for public API calls once the API key verified (`requireApiKey`, then `requestDeps`). */
export interface WorkspaceVariables extends RequestVariables {
  workspace: AuthenticatedWorkspace;
  /** The verified key: its kind decides the scope, CORS and the policy a request is bound by. */
  apiKey: AuthenticatedKey;
  /** What the request's use-cases need, built once per request (`requestDeps`). */
  deps: RequestDeps;
}

/**
 * A public API request's dependencies: what every use-case takes (a booking
 * use-case's `BookingDeps`, or the part another one takes) and who is calling.
 */
export interface RequestDeps extends UseCaseDeps {
  /** `staff` for a secret key, `customer` for a publishable key (the same fact as `staff`). */
  caller: Caller;
  /**
   * A publishable key's visitor: the key and the client address (an IPv6 /64), hashed so
   * the address itself is not stored; holds and bookings are capped per visitor.
   * Undefined for a secret key (staff).
   */
  visitor: string | undefined;
}

export interface AuthenticatedKey {
  id: string;
  kind: ApiKeyKind;
  /** Publishable keys: the web origins allowed to call with it (normalised). */
  allowedOrigins: string[];
}

export interface AuthenticatedWorkspace {
  id: string;
  country: string;
  currency: string;
  locale: string;
  timezone: string;
  /** The shard holding the workspace's data, as the directory said. */
  shard: string;
}

/** Routes that need no credentials (the OpenAPI documents, a booking's calendar feed). */
export interface OpenEnv {
  Bindings: Env;
  Variables: RequestVariables;
}

/** The management API: the admin token names no workspace, so none is on the request. */
export interface AdminEnv {
  Bindings: Env;
  Variables: RequestVariables;
}

/** The public API behind an API key: the workspace, its scope and render context are set. */
export interface PublicEnv {
  Bindings: Env;
  Variables: WorkspaceVariables;
}

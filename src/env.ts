import type { Database } from "./db/client";

/** Worker bindings (wrangler.toml) and secrets. */
export interface Env {
  DB: D1Database;
  /** Secret in production; `dev-admin-token` locally unless the environment overrides it. */
  ADMIN_TOKEN?: string;
  ALLOW_PRIVATE_WEBHOOKS?: string;
}

/** Per-request values set by middleware. */
export interface Variables {
  requestId: string;
  db: Database;
  workspace: AuthenticatedWorkspace;
}

export interface AuthenticatedWorkspace {
  id: string;
  country: string;
  currency: string;
  locale: string;
  timezone: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: Variables;
}

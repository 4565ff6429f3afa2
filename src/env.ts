import type { Database } from "./db/client";
import type { Scope } from "./db/scope";
import type { RenderContext } from "./views/booking";

/**
 * Worker bindings come from `wrangler types` (worker-configuration.d.ts, generated
 * from wrangler.toml); secrets are not in wrangler.toml, so they are added here.
 */
export type Env = Cloudflare.Env & {
  /** Secret in production; `dev-admin-token` locally unless the environment overrides it. */
  ADMIN_TOKEN?: string;
};

/** Per-request values set by middleware. */
export interface Variables {
  requestId: string;
  db: Database;
  workspace: AuthenticatedWorkspace;
  /** The authenticated workspace's D1 scope, for every tenant query (set by `requireApiKey`). */
  scope: Scope;
  /** The workspace's currency and locale and the request's origin, for rendering (set by `requireApiKey`). */
  render: RenderContext;
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

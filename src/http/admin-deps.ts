import type { Context } from "hono";
import type { Scope } from "../db/scope";
import type { Defer } from "../platform/defer";
import type { Env } from "../platform/env";
import type { AdminEnv } from "./env";
import { deferAfterResponse } from "./defer";

/** What a use-case needs to act on one workspace from the management API. */
export interface WorkspaceDeps {
  scope: Scope;
  env: Env;
  defer: Defer;
}

/**
 * The management API names its workspace in the path (`{ws}`), known only once
 * the parameters are valid, so its deps are built by the handler from there:
 * the same shape the public API's `c.var.deps` has for the key's workspace.
 */
export const workspaceDeps = (c: Context<AdminEnv>, ws: string): WorkspaceDeps => ({
  scope: { db: c.var.db, workspaceId: ws.toLowerCase() },
  env: c.env,
  defer: deferAfterResponse(c),
});

import type { AuthenticatedWorkspace } from "../../http/env";
import { cachedPlacement, rememberPlacement } from "../../db/shards";

/**
 * The settings of workspaces this isolate has authenticated a key for
 * (currency, locale, time zone, country), so a later request can start its
 * work while its key is checked. Keys are never cached: every request checks
 * its key in D1, and a key revoked now is refused on the very next request.
 * Settings change rarely; a request that finds them changed updates the entry.
 */
const MAX_ENTRIES = 1_000;
const known = new Map<string, AuthenticatedWorkspace>();

/** The settings and the shard, while this isolate's memory of where the workspace lives is fresh. */
export function knownWorkspace(id: string): AuthenticatedWorkspace | undefined {
  const workspace = known.get(id);
  const shard = cachedPlacement(id);
  return workspace && shard ? { ...workspace, shard } : undefined;
}

/** After every verified key: the directory's answer of this request, settings and shard. */
export function rememberWorkspace(workspace: AuthenticatedWorkspace): void {
  rememberPlacement(workspace.id, workspace.shard);
  known.delete(workspace.id);
  known.set(workspace.id, workspace);
  if (known.size > MAX_ENTRIES) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}

import type { AuthenticatedWorkspace } from "../../http/env";

/**
 * The settings of workspaces this isolate has authenticated a key for
 * (currency, locale, time zone, country), so a later request can start its
 * work while its key is checked. Keys are never cached: every request checks
 * its key in D1, and a key revoked now is refused on the very next request.
 * Settings change rarely; a request that finds them changed updates the entry.
 */
const MAX_ENTRIES = 1_000;
const known = new Map<string, AuthenticatedWorkspace>();

export const knownWorkspace = (id: string) => known.get(id);

export function rememberWorkspace(workspace: AuthenticatedWorkspace): void {
  known.delete(workspace.id);
  known.set(workspace.id, workspace);
  if (known.size > MAX_ENTRIES) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}

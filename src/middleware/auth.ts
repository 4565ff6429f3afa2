import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { apiKeys, workspaces } from "../db/schema";
import type { PublicEnv } from "../env";
import { constantTimeEqual, parseApiKey, sha256Hex } from "../lib/api-keys";
import { bearerToken } from "../lib/bearer";
import { ApiError } from "../lib/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// One message for every credential failure: a caller must not learn whether a workspace exists.
const invalid = () => new ApiError("unauthenticated", "The API key is invalid for this workspace.");

/** Public API: Bearer API key (secret or publishable) plus the Workspace header naming the key's own workspace. */
export const requireApiKey = createMiddleware<PublicEnv>(async (c, next) => {
  const token = bearerToken(c);
  if (!token) {
    throw new ApiError("unauthenticated", "Send the API key as `Authorization: Bearer <key>`.");
  }
  const workspaceId = c.req.header("workspace")?.trim();
  if (!workspaceId) {
    throw new ApiError("unauthenticated", "Send the workspace id in the `Workspace` header.");
  }
  const parsed = parseApiKey(token);
  if (!parsed || !UUID.test(workspaceId)) throw invalid();

  const [row] = await c.var.db
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.id, parsed.id))
    .limit(1);
  const matches = row ? await constantTimeEqual(await sha256Hex(token), row.key.keyHash) : false;
  if (
    !row ||
    !matches ||
    row.key.revokedAt !== null ||
    row.key.kind !== parsed.kind ||
    row.workspace.id !== workspaceId.toLowerCase()
  ) {
    throw invalid();
  }
  const { id, country, currency, locale, timezone } = row.workspace;
  c.set("workspace", { id, country, currency, locale, timezone });
  c.set("scope", { db: c.var.db, workspaceId: id });
  c.set("render", { currency, locale, origin: new URL(c.req.url).origin });
  c.set("apiKey", {
    id: row.key.id,
    kind: row.key.kind,
    allowedOrigins: row.key.allowedOrigins,
  });
  await next();
});

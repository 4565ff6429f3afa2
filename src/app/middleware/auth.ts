import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { findApiKey } from "../../tenancy/queries/api-key-auth";
import type { AuthenticatedKey, AuthenticatedWorkspace, PublicEnv } from "../../http/env";
import { constantTimeEqual, parseApiKey, sha256Hex } from "../../tenancy/api-keys";
import type { ApiKeyKind } from "../../platform/caller";
import { bearerToken } from "../../http/bearer";
import { internalError, standaloneError } from "../error-handler";
import { ApiError } from "../../platform/errors";
import { exposeToOrigin, checkOrigin } from "./cors";
import { limitKey } from "../../http/rate-limit";
import { knownWorkspace, rememberWorkspace } from "./workspace-settings";
import { UUID } from "../../platform/rules/uuid";

// One message for every credential failure: a caller must not learn whether a workspace exists.
const invalid = () => new ApiError("unauthenticated", "The API key is invalid for this workspace.");

interface PresentedKey {
  token: string;
  workspaceId: string;
  keyId: string;
  kind: ApiKeyKind;
}

interface Verified {
  workspace: AuthenticatedWorkspace;
  key: AuthenticatedKey;
}

/** What the headers claim, checked for shape only (no I/O). */
function readPresentedKey(c: Context<PublicEnv>): PresentedKey {
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
  return { token, workspaceId: workspaceId.toLowerCase(), keyId: parsed.id, kind: parsed.kind };
}

/** The key checked in D1 (one statement), then its origin and its rate limits. */
async function verify(c: Context<PublicEnv>, presented: PresentedKey): Promise<Verified> {
  const [row, hash] = await Promise.all([
    findApiKey(c.var.directory, presented.keyId),
    sha256Hex(presented.token),
  ]);
  const matches = row ? await constantTimeEqual(hash, row.key.keyHash) : false;
  if (
    !row ||
    !matches ||
    row.key.revokedAt !== null ||
    row.key.kind !== presented.kind ||
    row.workspace.id !== presented.workspaceId
  ) {
    throw invalid();
  }
  const { id, country, currency, locale, timezone, shard } = row.workspace;
  const verified = {
    workspace: { id, country, currency, locale, timezone, shard },
    key: { id: row.key.id, kind: row.key.kind, allowedOrigins: row.key.allowedOrigins },
  };
  checkOrigin(c, verified.key);
  await limitKey(c, verified.key);
  return verified;
}

function setContext(
  c: Context<PublicEnv>,
  workspace: AuthenticatedWorkspace,
  key: AuthenticatedKey,
) {
  c.set("workspace", workspace);
  c.set("apiKey", key);
  c.var.routeTo(workspace.id, workspace.shard);
}

/**
 * Public API: a Bearer API key (secret or publishable) and the Workspace
 * header naming the key's own workspace.
 *
 * The key is checked in the directory on every request, which also says
 * which shard holds the workspace: the request's D1 handle is routed there.
 * For a workspace this isolate already knows (settings and shard), the check
 * runs alongside the request's first reads instead of before them (one
 * sequential D1 hop for a read instead of two): writes and calendar calls
 * wait for it behind the request's write gate, and the answer is replaced by
 * the check's error if it fails, so nothing is written or returned for a bad
 * key. A shard remembered wrongly (the workspace moved) is refused by the
 * shard's placement check, never read or written. The first request of a
 * workspace checks first.
 */
export const requireApiKey = createMiddleware<PublicEnv>(async (c, next) => {
  const presented = readPresentedKey(c);
  const checked = verify(c, presented);
  const known = knownWorkspace(presented.workspaceId);
  if (!known) {
    const verified = await checked;
    rememberWorkspace(verified.workspace);
    setContext(c, verified.workspace, verified.key);
    exposeToOrigin(c, verified.key);
    return next();
  }

  // Until the check is back the key is what its prefix claims, its origins unknown; the
  // CORS headers are set now so error answers carry them too, and go if the check fails.
  setContext(c, known, { id: presented.keyId, kind: presented.kind, allowedOrigins: [] });
  exposeToOrigin(c, c.var.apiKey);
  c.var.gate.hold(checked);
  let failure: { error: unknown } | null = null;
  try {
    await next();
  } catch (error) {
    failure = { error };
  }
  const outcome = await checked.then(
    (verified) => ({ verified }),
    (error: unknown) => ({ error }),
  );
  if ("error" in outcome) {
    // Whatever the request answered is dropped, headers included, and no timing is added
    // (how long the work took would tell a wrong key about the workspace). A check that
    // itself failed (D1 down) is a 500, with nothing of the handler's answer either.
    c.set("refused", true);
    c.res = undefined;
    c.res =
      outcome.error instanceof ApiError
        ? standaloneError(outcome.error)
        : internalError(c.var.requestId, outcome.error);
    return;
  }
  rememberWorkspace(outcome.verified.workspace);
  c.set("apiKey", outcome.verified.key);
  if (failure) throw failure.error;
});

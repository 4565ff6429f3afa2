import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { auth } from "hono/utils/basic-auth";
import { constantTimeEqual, sha256Hex } from "../../tenancy/api-keys";
import { ApiError } from "../../platform/errors";
import { partnerByUsername } from "../queries/partners";
import type { RwgEnv } from "./env";
import { rwgDeps } from "./deps";

// One answer for every failure: a caller learns nothing of which part was wrong.
const refused = () =>
  new ApiError("unauthenticated", "The booking server's credentials are invalid.", {
    headers: { "www-authenticate": 'Basic realm="Reserve with Google", charset="UTF-8"' },
  });

/**
 * Google's HTTP Basic auth: the user names the workspace (partner credentials are the
 * directory's), the password must match, and the workspace must have the booking server
 * enabled. Only then is the workspace's shard routed to and the request's deps built.
 */
export const rwgBasicAuth = createMiddleware<RwgEnv>(async (c, next) => {
  try {
    await authenticate(c);
  } catch (error) {
    // A refused call's answer carries no timings: their D1 bytes would tell a user name
    // that exists from one that does not.
    c.set("refused", true);
    throw error;
  }
  await next();
});

async function authenticate(c: Context<RwgEnv>) {
  const presented = auth(c.req.raw);
  if (
    !presented ||
    presented.username.length === 0 ||
    presented.username.length > 128 ||
    presented.password.length > 256
  ) {
    throw refused();
  }
  const [row, hash] = await Promise.all([
    partnerByUsername(c.var.directory, presented.username),
    sha256Hex(presented.password),
  ]);
  const matches = row ? await constantTimeEqual(hash, row.partner.passwordHash) : false;
  if (!row || !matches || !row.partner.enabled) throw refused();
  const { id, country, currency, locale, timezone, shard } = row.workspace;
  c.set("workspace", { id, country, currency, locale, timezone, shard });
  c.var.routeTo(id, shard);
  c.set("deps", await rwgDeps(c));
}

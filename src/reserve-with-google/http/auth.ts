import type { Context } from "hono";
import { basicAuth } from "hono/basic-auth";
import { constantTimeEqual, sha256Hex } from "../../tenancy/api-keys";
import { partnerByUsername } from "../queries/partners";
import type { RwgEnv } from "./env";
import { rwgDeps } from "./deps";

/**
 * Google's HTTP Basic auth: the user names the workspace (its partner credentials are the
 * directory's), the password must match, and the workspace must have the booking server
 * enabled. Every failure is the same 401: a caller learns nothing of which part was wrong.
 * The workspace's shard is routed to, and the request's deps are built, only after.
 */
export const rwgBasicAuth = basicAuth({
  realm: "Reserve with Google",
  invalidUserMessage: {
    message: "The booking server's credentials are invalid.",
    code: "unauthenticated",
  },
  verifyUser: async (username, password, c: Context<RwgEnv>) => {
    if (username.length === 0 || username.length > 128 || password.length > 256) return false;
    const [row, hash] = await Promise.all([
      partnerByUsername(c.var.directory, username),
      sha256Hex(password),
    ]);
    if (!row || !row.partner.enabled) return false;
    if (!(await constantTimeEqual(hash, row.partner.passwordHash))) return false;
    const { id, country, currency, locale, timezone, shard } = row.workspace;
    const workspace = { id, country, currency, locale, timezone, shard };
    c.set("workspace", workspace);
    c.var.routeTo(id, shard);
    c.set("deps", await rwgDeps(c));
    return true;
  },
});

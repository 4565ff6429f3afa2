import { createMiddleware } from "hono/factory";
import { cors } from "hono/cors";
import { isAllowedOrigin } from "../domain/origins";
import type { PublicEnv } from "../env";
import { ApiError } from "../lib/errors";

const ALLOW_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const ALLOW_HEADERS = ["Authorization", "Workspace", "Content-Type", "Idempotency-Key"];
/** Headers a widget needs to read: waiting times, replays, where a created record lives. */
const EXPOSE_HEADERS = ["Retry-After", "Idempotent-Replayed", "Location", "Server-Timing"];

/**
 * Preflight on any public path, before anything else: a preflight carries no
 * key and the API uses no cookies, so echoing the origin reveals nothing; the
 * real request is then checked against its key. Other methods pass untouched.
 */
export const corsPreflight = cors({
  origin: (origin, c) => (c.req.method === "OPTIONS" && origin ? origin : null),
  allowMethods: ALLOW_METHODS,
  allowHeaders: ALLOW_HEADERS,
  maxAge: 600,
});

const allowOrigin = cors({ origin: (origin) => origin, exposeHeaders: EXPOSE_HEADERS });

/**
 * After `requireApiKey`, on real requests. Secret keys get no CORS headers at
 * all: a browser must never hold one. A publishable key sent from a page
 * gets its origin echoed when the key allows that origin (or the page is the
 * Worker's own widget), and 403 `origin_not_allowed` otherwise. A request
 * without an Origin header (curl, a server) is not a browser's and passes.
 */
export const browserAccess = createMiddleware<PublicEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  if (c.var.apiKey.kind !== "publishable" || !origin) return next();
  const own = new URL(c.req.url).origin;
  if (origin !== own && !isAllowedOrigin(origin, c.var.apiKey.allowedOrigins)) {
    throw new ApiError(
      "origin_not_allowed",
      "This publishable key is not allowed from this origin; add the origin to the key's allowed_origins.",
    );
  }
  return allowOrigin(c as never, next);
});

import type { Context } from "hono";
import { cors } from "hono/cors";
import { isAllowedOrigin } from "../../platform/rules/origins";
import type { AuthenticatedKey, PublicEnv } from "../../http/env";
import { ApiError } from "../../platform/errors";

const ALLOW_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** `D1-Bookmark`: a page sends back the last one it read, to read its own writes. */
const ALLOW_HEADERS = [
  "Authorization",
  "Workspace",
  "Content-Type",
  "Idempotency-Key",
  "D1-Bookmark",
];
/**
 * Headers a widget needs to read: waiting times, replays, where a created record lives, and
 * the bookmark of what it wrote (sent back on its next read).
 */
const EXPOSE_HEADERS = [
  "Retry-After",
  "Idempotent-Replayed",
  "Location",
  "Server-Timing",
  "D1-Bookmark",
];

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

/** The page's origin when a publishable key is sent from a browser; null otherwise. */
function pageOrigin(c: Context<PublicEnv>, key: AuthenticatedKey): string | null {
  if (key.kind !== "publishable") return null;
  return c.req.header("origin") ?? null;
}

/**
 * Part of the key check. A publishable key sent from a page must name that
 * page's origin in `allowed_origins` (the Worker's own pages, the widget,
 * always may): otherwise 403 `origin_not_allowed`. A request without an
 * Origin header (curl, a server) is not a browser's and passes.
 */
export function checkOrigin(c: Context<PublicEnv>, key: AuthenticatedKey): void {
  const origin = pageOrigin(c, key);
  if (!origin || origin === new URL(c.req.url).origin) return;
  if (!isAllowedOrigin(origin, key.allowedOrigins)) {
    throw new ApiError(
      "origin_not_allowed",
      "This publishable key is not allowed from this origin; add the origin to the key's allowed_origins.",
    );
  }
}

/**
 * Set before the request runs, so every answer to a publishable key's page
 * carries its origin (errors too: the page must read a 409). Secret keys get
 * no CORS headers at all: a browser must never hold one.
 */
export function exposeToOrigin(c: Context<PublicEnv>, key: AuthenticatedKey): void {
  const origin = pageOrigin(c, key);
  if (!origin) return;
  c.res.headers.set("access-control-allow-origin", origin);
  c.res.headers.set("access-control-expose-headers", EXPOSE_HEADERS.join(","));
  c.res.headers.append("vary", "Origin");
}

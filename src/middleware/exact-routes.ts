import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

import type { RouteSpec } from "../lib/api-paths";

export type { RouteSpec };

/** `{name}` (OpenAPI) → `:name` (Hono), the form the router stores. */
const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/**
 * A predicate for middleware exemptions: true only when the handler that will
 * answer the request is one of `routes`, compared by method and by the exact
 * path pattern it was registered with. Unlike a test on the URL's suffix,
 * another method on the same path, or another route whose path merely ends
 * the same way, is not exempt.
 */
export function isOneOf(routes: readonly RouteSpec[]) {
  const wanted = new Set(routes.map((r) => `${r.method.toUpperCase()} ${honoPath(r.path)}`));
  return (c: Context): boolean => {
    const route = answeringRoute(c);
    return route !== null && wanted.has(`${route.method} ${route.path}`);
  };
}

/**
 * The route whose handler will answer, relative to the router the middleware
 * runs in (Hono path form, `:name`); null when no route matches.
 */
export function answeringRoute(c: Context): RouteSpec | null {
  // Middleware is registered for ALL methods; the first other route is the one that answers.
  const handler = matchedRoutes(c).find((r) => r.method !== "ALL");
  if (!handler) return null;
  const base = handler.basePath === "/" ? "" : handler.basePath;
  if (!handler.path.startsWith(base)) return null;
  return { method: handler.method, path: handler.path.slice(base.length) };
}

import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { OpenEnv } from "../../http/env";
import { type Declaration, declarations, routeKey } from "../../http/operations";

/** A router's OpenAPI registry: where its routes, and their declarations, are registered. */
interface Declaring {
  openAPIRegistry: Parameters<typeof declarations>[0];
}

/**
 * The route whose handler will answer, relative to the router the middleware
 * runs in (Hono path form, `:name`); null when no route matches. Compared by
 * method and by the exact path pattern it was registered with: another method
 * on the same path, or a path that merely ends the same way, is another route.
 */
function answeringRoute(c: Context): { method: string; path: string } | null {
  // Middleware is registered for ALL methods; the first other route is the one that answers.
  const handler = matchedRoutes(c).find((r) => r.method !== "ALL");
  if (!handler) return null;
  const base = handler.basePath === "/" ? "" : handler.basePath;
  if (!handler.path.startsWith(base)) return null;
  return { method: handler.method, path: handler.path.slice(base.length) };
}

/**
 * Puts on the request what the answering route declared about itself
 * (`c.var.operation`: its operationId and the keys it takes), for the
 * middleware after it; nothing when no route answers (404, 405). Read from
 * the router's registry on the first request, once every route is registered.
 * A route without a declaration is a programming error and answers 500 rather
 * than being let through (the OpenAPI documents refuse it too).
 */
export function declaredOperation(router: Declaring) {
  let byRoute: Map<string, Declaration | undefined> | undefined;
  return createMiddleware<OpenEnv>(async (c, next) => {
    const route = answeringRoute(c);
    if (route) {
      byRoute ??= declarations(router.openAPIRegistry);
      const declaration = byRoute.get(routeKey(route.method, route.path));
      if (!declaration) throw new Error(`${route.method} ${route.path} declares no keys`);
      c.set("operation", declaration);
    }
    await next();
  });
}

/** The answering route takes no credentials (`keys: "none"`): the key check skips it. */
export const takesNoKeys = (c: Context<OpenEnv>) => c.var.operation?.keys === "none";

import { createRoute, type RouteConfig } from "@hono/zod-openapi";

/**
 * Which credentials an operation takes:
 * - `publishable`: any API key of the workspace, a publishable one (a booking widget) included;
 * - `secret`: a secret API key only (a publishable key is refused with 403 `forbidden`);
 * - `admin`: the management API's admin token;
 * - `none`: no credentials at all (the OpenAPI documents; a booking's calendar link, whose
 *   token is its credential). Documented with `security: []`.
 */
export type Keys = "publishable" | "secret" | "admin" | "none";

/** What a route declares about itself beside its OpenAPI description. */
export interface Declaration {
  /** Unique within its document; client generators name their methods by it. */
  operationId: string;
  keys: Keys;
}

/**
 * The declaration travels with the route under a symbol: the OpenAPI registry
 * and the generator copy a route's own properties, symbols included, into the
 * document, and JSON leaves symbol keys out, so the served documents carry
 * only what OpenAPI defines. The operationId is written back by
 * `completeDocument`, after the fields the generator writes.
 */
const DECLARATION = Symbol("declaration");

type Declared = { [DECLARATION]: Declaration };

/**
 * `createRoute` with the route's own operationId and the keys that may call
 * it, next to its method and path:
 *
 *     defineRoute({ operationId: "cancelBooking", keys: "publishable", method: "put", … })
 */
export function defineRoute<
  P extends string,
  R extends Omit<RouteConfig, "path" | "operationId"> & { path: P },
>({ operationId, keys, ...config }: R & Declaration) {
  const route = createRoute(config as unknown as R);
  // The two fields are on the symbol only (typed so), not where the generator would copy them.
  return Object.assign(route, { [DECLARATION]: { operationId, keys } }) as Omit<
    typeof route,
    keyof Declaration
  > &
    Declared;
}

/** The declaration of a route made with `defineRoute` (or a copy of one); undefined otherwise. */
export const declarationOf = (route: object): Declaration | undefined =>
  (route as Partial<Declared>)[DECLARATION];

/** `METHOD /path/:param`: a registered route's key, whichever spelling of its parameters. */
export const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+/g, ":")}`;

/** A router's OpenAPI registry, as far as the declarations need it. */
interface Registry {
  definitions: readonly { type: string; route?: { method: string; path: string } }[];
}

/** Every registered route's declaration (sub-routers' included), by `routeKey`. */
export function declarations(registry: Registry): Map<string, Declaration | undefined> {
  const found = new Map<string, Declaration | undefined>();
  for (const definition of registry.definitions) {
    if (definition.type !== "route" || !definition.route) continue;
    const { method, path } = definition.route;
    found.set(routeKey(method, path), declarationOf(definition.route));
  }
  return found;
}

import type { OpenEnv, PublicEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorCodes } from "../../lib/responses";
import type { RouteSpec } from "../../middleware/exact-routes";
import { isPublishableOperation } from "../../middleware/publishable-scope";

const same = (a: RouteSpec, b: RouteSpec) =>
  a.method.toLowerCase() === b.method.toLowerCase() && a.path === b.path;

/**
 * Every operation behind an API key can answer 403 to a publishable key: for
 * a foreign origin, and, outside the key's scope, for any call. Added to each
 * registered route's documented responses here, where the scope table is
 * known, rather than repeated in every route file.
 */
export function documentKeyErrors(
  router: Router<PublicEnv> | Router<OpenEnv>,
  withoutApiKey: readonly RouteSpec[],
) {
  for (const definition of router.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { route } = definition;
    if (withoutApiKey.some((open) => same(open, route))) continue;
    route.responses[403] = isPublishableOperation(route.method, route.path)
      ? errorCodes("A publishable key sent from an origin it does not allow", [
          "origin_not_allowed",
        ])
      : errorCodes(
          "A publishable key: outside its scope (`forbidden`), or from an origin it does not allow",
          ["forbidden", "origin_not_allowed"],
        );
  }
}

import type { OpenEnv, PublicEnv } from "../../http/env";
import type { Router } from "../../http/openapi";
import { declarationOf } from "../../http/operations";
import { errorCodes } from "../../http/responses";

/**
 * Every operation behind an API key can answer 403 to a publishable key: for
 * a foreign origin, and, outside the key's scope, for any call. Added to each
 * registered route's documented responses here, from the keys the route
 * declares, rather than repeated in every route file.
 */
export function documentKeyErrors(router: Router<PublicEnv> | Router<OpenEnv>) {
  for (const definition of router.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { route } = definition;
    const keys = declarationOf(route)?.keys;
    if (keys === "none") continue;
    route.responses[403] =
      keys === "publishable"
        ? errorCodes("A publishable key sent from an origin it does not allow", [
            "origin_not_allowed",
          ])
        : errorCodes(
            "A publishable key: outside its scope (`forbidden`), or from an origin it does not allow",
            ["forbidden", "origin_not_allowed"],
          );
  }
}

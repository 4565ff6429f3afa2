import { createMiddleware } from "hono/factory";
import type { PublicEnv } from "../../http/env";
import { ApiError } from "../../platform/errors";

/**
 * After `requireApiKey`: a publishable key calling an operation whose route
 * does not declare `keys: "publishable"` is 403 `forbidden`. What a
 * publishable key may do is what a booking widget needs and nothing else:
 * reading the catalogue and free time, holding a slot, booking, and looking
 * after one booking whose uuid the customer holds (the uuid is their
 * capability; cancel and reschedule are bound by the location's policy). The
 * key is public, so everything else is refused.
 */
export const publishableScope = createMiddleware<PublicEnv>(async (c, next) => {
  const operation = c.var.operation;
  // No route at all: let the router answer 404/405 as for any key.
  if (c.var.apiKey.kind === "publishable" && operation && operation.keys !== "publishable") {
    throw new ApiError(
      "forbidden",
      "A publishable key cannot call this operation; use a secret key from a server.",
    );
  }
  await next();
});

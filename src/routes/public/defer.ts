import type { Context } from "hono";
import type { Defer } from "../../calendar/client";
import type { PublicEnv } from "../../env";

/** Tasks that run once the request's answer is ready (`requestContext` starts them). */
export const deferAfterResponse =
  (c: Context<PublicEnv>): Defer =>
  (task) =>
    c.var.afterResponse(task);

import { createMiddleware } from "hono/factory";
import { ApiError } from "../../platform/errors";
import type { RwgEnv } from "./env";

/**
 * Once the credentials named the workspace: its booking server's calls together, whatever
 * addresses they come from, share the per-key allowance of an API key (API_RATE_LIMIT):
 * leaked credentials cannot cost a salon's calendars more than one key can.
 */
export const limitPartner = createMiddleware<RwgEnv>(async (c, next) => {
  const { success } = await c.env.API_RATE_LIMIT.limit({ key: `rwg:${c.var.workspace.id}` });
  if (!success) {
    throw new ApiError("rate_limited", "Too many requests; slow down and retry later.", {
      headers: { "retry-after": "10" },
    });
  }
  await next();
});

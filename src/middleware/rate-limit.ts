import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { parseApiKeyId } from "../lib/api-keys";
import { bearerToken } from "../lib/bearer";
import { ApiError } from "../lib/errors";

/** The window of the limiter bindings in wrangler.toml, which is what a client should wait. */
const PERIOD_SECONDS = 10;

const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? "local";

/**
 * Per-caller limits through the Workers rate-limit binding, checked before
 * authentication so a flood costs no D1 round trip. Public calls count per API
 * key (its id is readable without a lookup), anything else per client address.
 */
const limitWith = (
  binding: (env: AppEnv["Bindings"]) => RateLimit,
  keyOf: (c: Context<AppEnv>) => string,
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { success } = await binding(c.env).limit({ key: keyOf(c) });
    if (!success) {
      throw new ApiError("rate_limited", "Too many requests; slow down and retry later.", {
        headers: { "retry-after": String(PERIOD_SECONDS) },
      });
    }
    await next();
  });

export const publicRateLimit = limitWith(
  (env) => env.API_RATE_LIMIT,
  (c) => {
    const token = bearerToken(c);
    const keyId = token ? parseApiKeyId(token) : null;
    return keyId ? `key:${keyId}` : `ip:${clientAddress(c)}`;
  },
);

export const adminRateLimit = limitWith(
  (env) => env.ADMIN_RATE_LIMIT,
  (c) => `ip:${clientAddress(c)}`,
);

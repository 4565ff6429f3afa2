import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { visitorAddress } from "../platform/rules/client-address";
import type { AuthenticatedKey, OpenEnv, PublicEnv } from "./env";
import { ApiError } from "../platform/errors";

/** The window of the limiter bindings in wrangler.toml, which is what a client should wait. */
const PERIOD_SECONDS = 10;
/** CUSTOMER_CHANGE's window (MANAGE_WRITE_RATE_LIMIT in wrangler.toml) is a minute. */
const CHANGE_PERIOD_SECONDS = 60;

/**
 * The caller's address as Cloudflare reports it ("local" in development and
 * tests), as one visitor: an IPv6 address counts as its /64 (see `visitorAddress`).
 * Only `cf-connecting-ip`, which Cloudflare sets itself: a client's
 * `X-Forwarded-For` or `X-Real-IP` would let it pick its own bucket.
 */
export const clientAddress = (c: Context<OpenEnv> | Context<PublicEnv>) =>
  visitorAddress(c.req.header("cf-connecting-ip") ?? "local");

async function enforce(limiter: RateLimit, key: string, periodSeconds = PERIOD_SECONDS) {
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new ApiError("rate_limited", "Too many requests; slow down and retry later.", {
      headers: { "retry-after": String(periodSeconds) },
    });
  }
}

/**
 * Limits through the Workers rate-limit bindings. Nothing read from an
 * unverified credential picks a bucket: before authentication a call counts
 * against its client address (so a flood of made-up keys costs no D1 round
 * trip beyond that allowance, and cannot spread over buckets of its own), and
 * only after the API key verified does it also count against that key.
 */
const byAddress = (binding: (env: OpenEnv["Bindings"]) => RateLimit) =>
  createMiddleware<OpenEnv>(async (c, next) => {
    await enforce(binding(c.env), `ip:${clientAddress(c)}`);
    await next();
  });

/** Public API, before authentication: per client address. */
export const publicAddressRateLimit = byAddress((env) => env.ADDRESS_RATE_LIMIT);

/**
 * Manage links (no key; the token is checked by the route): per client
 * address, before the token is looked at, with an allowance of their own.
 */
export const manageRateLimit = byAddress((env) => env.MANAGE_RATE_LIMIT);

/**
 * Manage and offer links, once the link names what it opens: per link (a
 * manage link's booking, whichever of its links is used; an offer's token)
 * and per workspace, whatever client addresses the calls come from. The
 * per-address limit alone is no bound for a stranger who rotates addresses
 * (a routed /48 holds 65,536 /64s), and a slot search through a link costs
 * the calendars what a widget's does.
 */
export const limitLink = (env: OpenEnv["Bindings"], link: string) =>
  enforce(env.LINK_RATE_LIMIT, `link:${link}`);

/** See `limitLink`: every link into one workspace together. */
export const limitLinkWorkspace = (env: OpenEnv["Bindings"], workspaceId: string) =>
  enforce(env.LINK_WORKSPACE_RATE_LIMIT, `ws:${workspaceId}`);

/**
 * A customer's change of a booking (a publishable key's or a manage link's
 * cancel or reschedule): per booking, whatever key or address it comes from,
 * since each change may message the customer. The change runner calls it
 * (`BookingDeps.limitCustomerChange`) for every change that is not staff's,
 * so no route can leave it out.
 */
export const limitCustomerChange = (env: OpenEnv["Bindings"], bookingId: string) =>
  enforce(env.MANAGE_WRITE_RATE_LIMIT, `booking:${bookingId}`, CHANGE_PERIOD_SECONDS);

/** Google's booking server, before its Basic auth: per client address, in a bucket of its own. */
export const rwgAddressRateLimit = byAddress((env) => env.RWG_ADDRESS_RATE_LIMIT);

/** Management API, before the admin token is checked: per client address. */
export const adminRateLimit = byAddress((env) => env.ADMIN_RATE_LIMIT);

/**
 * Part of the key check, once the key verified: per key. A secret key counts
 * in its own bucket. A publishable key is shared by every visitor of a
 * salon's site, so it has limits of its own: one for the key as a whole, and
 * a much smaller one per client address, so one visitor (or one script
 * lifting the key from the page) cannot spend the whole site's allowance.
 */
export async function limitKey(c: Context<PublicEnv>, key: AuthenticatedKey): Promise<void> {
  if (key.kind === "secret") {
    await enforce(c.env.API_RATE_LIMIT, `key:${key.id}`);
  } else {
    await enforce(c.env.PUBLISHABLE_KEY_RATE_LIMIT, `pk:${key.id}`);
    await enforce(c.env.PUBLISHABLE_CLIENT_RATE_LIMIT, `pk:${key.id}:ip:${clientAddress(c)}`);
  }
}

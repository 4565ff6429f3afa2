import type { Context } from "hono";
import type { Scope } from "../../../db/scope";
import type { OpenEnv } from "../../../http/env";
import { routeLink } from "../../../http/route-link";
import { workspaceOfToken } from "../../../platform/workspace-token";
import { sha256Hex } from "../../../tenancy/api-keys";
import { limitLink, limitLinkWorkspace } from "../../../http/rate-limit";
import { invalidOffer, openOffer, openOfferOrBooked } from "../../offer-book";

/**
 * The offer a link's token opens, counted per token before it is looked up
 * and per workspace once it is known (the per-address limit ran before): a
 * stranger rotating addresses gets no more out of one link, nor out of a
 * salon's links together, than those bounds.
 */
export async function openLimitedOffer(c: Context<OpenEnv>, token: string) {
  const opened = await openOffer(await offerShard(c, token), token);
  await limitLinkWorkspace(c.env, opened.scope.workspaceId);
  return opened;
}

/** The offer's page: as `openLimitedOffer`, and an offer booked through its link opens too. */
export async function openLimitedOfferPage(c: Context<OpenEnv>, token: string) {
  const opened = await openOfferOrBooked(await offerShard(c, token), token);
  await limitLinkWorkspace(c.env, opened.scope.workspaceId);
  return opened;
}

/**
 * Counted per token, then routed to the shard of the workspace the token
 * names. Text that is no offer token, and a workspace the directory does not
 * know, are refused as a token no offer has: a link tells nobody whether a
 * workspace exists.
 */
async function offerShard(c: Context<OpenEnv>, token: string): Promise<Scope> {
  // The token's digest names its bucket: the limiter never holds the credential itself.
  await limitLink(c.env, `offer:${await sha256Hex(token)}`);
  const workspaceId = workspaceOfToken(token);
  const db = workspaceId ? await routeLink(c, workspaceId) : null;
  if (!workspaceId || !db) throw invalidOffer();
  return { db, workspaceId };
}

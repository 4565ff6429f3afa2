import type { Context } from "hono";
import type { OpenEnv } from "../../../http/env";
import { sha256Hex } from "../../../tenancy/api-keys";
import { limitLink, limitLinkWorkspace } from "../../../http/rate-limit";
import { openOffer, openOfferOrBooked } from "../../offer-book";

/**
 * The offer a link's token opens, counted per token before it is looked up
 * and per workspace once it is known (the per-address limit ran before): a
 * stranger rotating addresses gets no more out of one link, nor out of a
 * salon's links together, than those bounds.
 */
export async function openLimitedOffer(c: Context<OpenEnv>, token: string) {
  // The token's digest names its bucket: the limiter never holds the credential itself.
  await limitLink(c.env, `offer:${await sha256Hex(token)}`);
  const opened = await openOffer(c.var.db, token);
  await limitLinkWorkspace(c.env, opened.scope.workspaceId);
  return opened;
}

/** The offer's page: as `openLimitedOffer`, and an offer booked through its link opens too. */
export async function openLimitedOfferPage(c: Context<OpenEnv>, token: string) {
  await limitLink(c.env, `offer:${await sha256Hex(token)}`);
  const opened = await openOfferOrBooked(c.var.db, token);
  await limitLinkWorkspace(c.env, opened.scope.workspaceId);
  return opened;
}

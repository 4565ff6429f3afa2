import type { Scope } from "../../db/scope";
import { ApiError, notFound } from "../../platform/errors";
import { FEED_LIMITS, feedCatalogue } from "../queries/feed-catalogue";
import { bookableThroughGoogle } from "../rules/bookable";
import { feedMetadata } from "../views/feed-metadata";
import { merchantOf } from "../views/merchant-feed";
import { serviceOf } from "../views/service-feed";

/** One generation's clock and nonce (the same for every feed made together). */
export interface Generation {
  nowMs: number;
  nonce: string;
}

const tooLarge = (what: string, max: number) =>
  new ApiError(
    "request_too_large",
    `The workspace has more than ${max} ${what}: the feed would be cut, and Google would drop what it left out.`,
  );

async function catalogue(scope: Scope) {
  const found = await feedCatalogue(scope);
  if (!found) throw notFound("Workspace");
  if (found.locations.length > FEED_LIMITS.locations) {
    throw tooLarge("locations", FEED_LIMITS.locations);
  }
  if (found.offers.length > FEED_LIMITS.offers) {
    throw tooLarge("services offered at its locations", FEED_LIMITS.offers);
  }
  return found;
}

/** Every location as a Google merchant: one shard. */
export async function merchantFeed(scope: Scope, gen: Generation) {
  const { workspace, locations } = await catalogue(scope);
  return {
    metadata: feedMetadata({ shard: 0, shards: 1, ...gen }),
    merchant: locations.map((location) => merchantOf(workspace, location)),
  };
}

/**
 * Every service Google may book (`bookableThroughGoogle`) at every location
 * offering it, one entry per pair: one shard.
 */
export async function serviceFeed(scope: Scope, gen: Generation) {
  const { workspace, locations, offers } = await catalogue(scope);
  const byId = new Map(locations.map((l) => [l.id, l]));
  return {
    metadata: feedMetadata({ shard: 0, shards: 1, ...gen }),
    service: offers.flatMap(({ locationId, service }) => {
      const location = byId.get(locationId);
      return location && bookableThroughGoogle(service)
        ? [serviceOf(workspace, location, service)]
        : [];
    }),
  };
}

import type { Scope } from "../../db/scope";
import { ApiError, fieldError, notFound } from "../../platform/errors";
import { FEED_LIMITS, feedWorkspaceLocations } from "../queries/feed-catalogue";
import { feedMetadata } from "../views/feed-metadata";
import { availabilityOf } from "../views/availability-feed";
import { openSlots } from "./open-slots";
import type { Generation } from "./catalogue-feeds";

/** Google asks for 30 days of availability in every upload. */
export const AVAILABILITY_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * Shard `shard` of the availability feed: the open slots of the workspace's
 * shard-th location (creation order) over [now, now + 30 days). One shard per
 * location (at least one: a workspace without locations has one, empty).
 */
export async function availabilityFeed(scope: Scope, gen: Generation & { shard: number }) {
  const found = await feedWorkspaceLocations(scope);
  if (!found) throw notFound("Workspace");
  const { locations } = found;
  if (locations.length > FEED_LIMITS.locations) {
    throw new ApiError(
      "request_too_large",
      `The workspace has more than ${FEED_LIMITS.locations} locations: the feed would be cut.`,
    );
  }
  const shards = Math.max(1, locations.length);
  if (gen.shard >= shards) {
    throw fieldError("shard", `The shard must be less than total_shards (${shards}).`);
  }
  const location = locations[gen.shard];
  const slots = location
    ? ((await openSlots(scope, {
        locationId: location.id,
        fromMs: gen.nowMs,
        toMs: gen.nowMs + AVAILABILITY_DAYS * DAY_MS,
        now: gen.nowMs,
      })) ?? [])
    : [];
  return {
    metadata: feedMetadata({ shard: gen.shard, shards, nonce: gen.nonce, nowMs: gen.nowMs }),
    service_availability: [
      { availability: location ? slots.map((s) => availabilityOf(location.id, s)) : [] },
    ],
  };
}

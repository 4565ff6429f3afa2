import { z } from "@hono/zod-openapi";
import { errorCodes } from "../../../http/responses";
import { FEED_LIMITS } from "../../queries/feed-catalogue";

const nonce = z
  .string()
  .regex(/^[1-9]\d{0,18}$/, "The nonce must be a positive integer of at most 19 digits.")
  .optional()
  .openapi({
    description:
      "The generation's nonce (uint64), the same for every shard of it. Default: the UTC hour of the request (hours since the epoch), so the shards fetched within one hour agree; pass one to span an hour boundary",
    example: "494000",
  });

export const FeedQuery = z.object({ nonce });

export const AvailabilityFeedQuery = z.object({
  shard: z
    .string()
    .regex(/^\d{1,4}$/, "The shard must be a whole number from 0.")
    .transform(Number)
    .pipe(
      z
        .number()
        .max(
          FEED_LIMITS.locations - 1,
          `The shard may not be greater than ${FEED_LIMITS.locations - 1}.`,
        ),
    )
    .optional()
    .openapi({
      type: "integer",
      minimum: 0,
      maximum: FEED_LIMITS.locations - 1,
      description:
        "Zero-based shard: the shard-th location of the workspace (creation order); default 0. total_shards is the number of locations (1 with none)",
    }),
  nonce,
});

export const feedTooLarge = {
  422: errorCodes(
    `A query parameter is invalid (\`validation_failed\`), or the workspace has more than ${FEED_LIMITS.locations} locations or ${FEED_LIMITS.offers} services offered at them (\`request_too_large\`: the feed is never cut)`,
    ["validation_failed", "request_too_large"],
  ),
} as const;

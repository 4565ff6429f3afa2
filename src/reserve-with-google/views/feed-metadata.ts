import { z } from "@hono/zod-openapi";
import { int64Out } from "../wire/json";

/** A proto int64 as the feeds write it: a decimal string (proto3 JSON; readers take numbers too). */
export const Int64String = z.string().regex(/^-?\d+$/);

export const FeedMetadataSchema = z
  .object({
    processing_instruction: z.literal("PROCESS_AS_COMPLETE").openapi({
      description: "Each feed (all its shards together) replaces everything sent before",
    }),
    shard_number: z.number().int().min(0).openapi({ description: "Zero-based" }),
    total_shards: z.number().int().min(1),
    nonce: Int64String.openapi({
      description: "uint64: the same on every shard of one generation of the feed",
    }),
    generation_timestamp: Int64String.openapi({ description: "Unix seconds (int64)" }),
  })
  .openapi("RwgFeedMetadata", { description: "Google's FeedMetadata (proto3 JSON)" });
export type FeedMetadata = z.infer<typeof FeedMetadataSchema>;

export const feedMetadata = (m: {
  shard: number;
  shards: number;
  nonce: string;
  nowMs: number;
}): FeedMetadata => ({
  processing_instruction: "PROCESS_AS_COMPLETE",
  shard_number: m.shard,
  total_shards: m.shards,
  nonce: m.nonce,
  generation_timestamp: int64Out(m.nowMs / 1000),
});

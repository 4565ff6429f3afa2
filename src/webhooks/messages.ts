import type { events } from "../db/schema";
import { toIso } from "../platform/clock";

/**
 * What travels on WEBHOOK_QUEUE: an outbox event to fan out, or one delivery
 * of it to one webhook. `workspaceId` says which shard to read: a message
 * queued before shards has none, and its event is looked for on every shard.
 */
export type WebhookMessage =
  | { kind: "event"; eventId: string; workspaceId?: string }
  | { kind: "delivery"; eventId: string; webhookId: number; workspaceId?: string };

/** The callback body (docs/api.md, "Events and webhooks"). */
export interface Envelope {
  id: string;
  type: string;
  created_at: string;
  workspace: string;
  data: unknown;
}

/** The callback body of an outbox event. */
export const envelopeOf = (e: typeof events.$inferSelect): Envelope => ({
  id: e.id,
  type: e.type,
  created_at: toIso(e.createdAt),
  workspace: e.workspaceId,
  data: e.payload,
});

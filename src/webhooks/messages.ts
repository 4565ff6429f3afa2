import type { events } from "../db/schema";
import { toIso } from "../platform/clock";

/** What travels on WEBHOOK_QUEUE: an outbox event to fan out, or one delivery of it to one webhook. */
export type WebhookMessage =
  { kind: "event"; eventId: string } | { kind: "delivery"; eventId: string; webhookId: number };

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

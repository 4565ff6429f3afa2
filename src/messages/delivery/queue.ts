import type { DueMessage } from "../queries/message-delivery";
import type { Env } from "../../platform/env";

/** What travels on MESSAGE_QUEUE: one message to deliver (its row holds everything else). */
export interface MessageQueueBody {
  kind: "message";
  messageId: string;
  workspaceId: string;
}

/** The queue's name (wrangler.toml), by which the Worker's queue handler picks the consumer. */
export const MESSAGE_QUEUE_NAME = "salon-messages";

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/**
 * Hands messages to MESSAGE_QUEUE. Enqueuing one twice is harmless: the
 * delivery leases the row, so only one of the two sends it.
 */
export async function enqueueMessages(env: Env, due: readonly DueMessage[]): Promise<void> {
  for (let i = 0; i < due.length; i += SEND_BATCH) {
    await env.MESSAGE_QUEUE.sendBatch(
      due.slice(i, i + SEND_BATCH).map((m) => ({
        body: {
          kind: "message",
          messageId: m.id,
          workspaceId: m.workspaceId,
        } satisfies MessageQueueBody,
      })),
    );
  }
}

import { MOVE_WAIT_SECONDS, movedAway } from "../../db/background";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { MAX_DELAY_SECONDS } from "../../platform/rules/backoff";
import { deliverCustomerMessage, MAX_ATTEMPTS } from "./deliver";
import type { MessageQueueBody } from "./queue";

/**
 * Consumes MESSAGE_QUEUE: each queue message delivers one customer message.
 * The message's row decides, not the queue's attempt count: a failed send is
 * retried after its backoff until MAX_ATTEMPTS (recorded on the row), a
 * message another delivery holds or that is not due yet is looked at again
 * when that can have changed, and a settled one is acknowledged.
 */
export async function consumeMessageBatch(batch: MessageBatch<MessageQueueBody>, env: Env) {
  // Messages are independent, so a batch runs them side by side.
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      if (body?.kind !== "message" || !body.messageId || !body.workspaceId) {
        log("error", "unreadable message queue body", { queue_message_id: message.id });
        message.ack();
        return;
      }
      try {
        const delivery = await deliverCustomerMessage(env, body);
        if (delivery.outcome === "done") {
          if (delivery.status === "failed") {
            await env.MESSAGE_DLQ.send({ ...body, attempts: MAX_ATTEMPTS });
          }
          message.ack();
        } else if (delivery.delaySeconds > MAX_DELAY_SECONDS) {
          // Further off than a queue can wait: the workspace's clock enqueues it when due.
          message.ack();
        } else {
          message.retry({ delaySeconds: delivery.delaySeconds });
        }
      } catch (error) {
        if (movedAway(error, body.workspaceId)) {
          // A move paused the workspace's writes: the same delivery later, on whichever shard
          // it is then, as a new message (waiting out a move spends none of the retries).
          await env.MESSAGE_QUEUE.send(body, { delaySeconds: MOVE_WAIT_SECONDS }).then(
            () => message.ack(),
            () => message.retry({ delaySeconds: MOVE_WAIT_SECONDS }),
          );
          return;
        }
        // Unexpected (D1 unavailable…): the queue retries, then dead-letters it.
        log("error", "customer message delivery failed", { message_id: body.messageId, error });
        message.retry();
      }
    }),
  );
}

import { backgroundDb, MOVE_WAIT_SECONDS, movedAway } from "../../db/background";
import { configOf } from "../../platform/config";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import { retryDelaySeconds } from "../../platform/rules/backoff";
import { replaceAvailability } from "./availability";
import type { CallOutcome } from "./call";
import type { RwgMessage } from "./message";
import { notifyBooking } from "./notification";

/**
 * Consumes RWG_QUEUE: each message is one call to Google, acknowledged or retried on its
 * own, under the partner account the message names. Network errors, 429, 5xx and a token
 * not had come back after a backoff (the queue's max_retries bounds them, then the
 * dead-letter queue keeps a copy); a request Google refuses otherwise would be refused
 * again, so it is logged and dropped.
 */
export async function consumeRwgBatch(batch: MessageBatch<RwgMessage>, env: Env) {
  const config = configOf(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      try {
        const handle = config.rwgNotify ? await backgroundDb(env, body.workspaceId) : null;
        if (!config.rwgNotify || !handle) {
          // Updates were turned off since, or the workspace is gone: nothing to tell.
          message.ack();
          return;
        }
        const scope = { db: handle.db, workspaceId: body.workspaceId };
        const outcome =
          body.kind === "booking"
            ? await notifyBooking(config.rwgNotify, scope, body)
            : await replaceAvailability(config.rwgNotify, scope, body);
        settle(message, outcome, config.rwgRetryBaseSeconds);
      } catch (error) {
        if (movedAway(error, body.workspaceId)) {
          // A move paused the workspace: the same read later, on whichever shard it is then.
          message.retry({ delaySeconds: MOVE_WAIT_SECONDS });
          return;
        }
        log("error", "reserve with google update failed", { error, kind: body.kind });
        message.retry({
          delaySeconds: retryDelaySeconds(
            message.attempts,
            config.rwgRetryBaseSeconds,
            Math.random(),
          ),
        });
      }
    }),
  );
}

function settle(
  message: Message<RwgMessage>,
  outcome: CallOutcome | "nothing",
  baseSeconds: number,
) {
  if (outcome === "nothing" || outcome.kind === "done") {
    message.ack();
    return;
  }
  const { kind, workspaceId } = message.body;
  if (outcome.kind === "refused") {
    log("warn", "reserve with google refused an update; dropped", {
      kind,
      workspace_id: workspaceId,
      status: outcome.status,
      detail: outcome.detail,
    });
    message.ack();
    return;
  }
  log("info", "reserve with google update to be retried", {
    kind,
    workspace_id: workspaceId,
    status: outcome.status,
    attempt: message.attempts,
  });
  message.retry({
    delaySeconds: retryDelaySeconds(
      message.attempts,
      baseSeconds,
      Math.random(),
      outcome.retryAfterSeconds,
    ),
  });
}

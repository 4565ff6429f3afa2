import { env } from "cloudflare:workers";
import { MESSAGE_QUEUE_NAME, type MessageQueueBody } from "../../src/delivery/queue";
import type { Env } from "../../src/env";
import { consumeFrom, type QueuedMessage } from "./queue";

/**
 * Customer messages written straight to D1, as the booking change's batch
 * writes them, and MESSAGE_QUEUE's consumer driven by hand (see ./queue.ts).
 */

export interface MessageFields {
  id: string;
  kind: string;
  channel: "email" | "sms";
  to: string;
  locale: string;
  subject: string | null;
  body: string;
  status: string;
  scheduled_for: number;
  attempts: number;
  lease_until: number | null;
  created_at: number;
}

export interface MessageRecord extends MessageFields {
  workspace_id: string;
  provider: string | null;
  provider_message_id: string | null;
  sent_at: number | null;
  error: string | null;
}

/** A scheduled e-mail due now unless `fields` say otherwise; returns its id. */
export async function insertMessage(
  workspaceId: string,
  fields: Partial<MessageFields> = {},
): Promise<string> {
  const now = Date.now();
  const row: MessageFields = {
    id: crypto.randomUUID(),
    kind: "booking-confirmation",
    channel: "email",
    to: "ada@example.com",
    locale: "en",
    subject: "Your booking is confirmed",
    body: "See you on Monday, 3 June at 10:00.",
    status: "scheduled",
    scheduled_for: now,
    attempts: 0,
    lease_until: null,
    created_at: now,
    ...fields,
  };
  await env.DB.prepare(
    `insert into messages (id, workspace_id, kind, channel, "to", locale, subject, body, status,
       scheduled_for, attempts, lease_until, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      row.id,
      workspaceId,
      row.kind,
      row.channel,
      row.to,
      row.locale,
      row.subject,
      row.body,
      row.status,
      row.scheduled_for,
      row.attempts,
      row.lease_until,
      row.created_at,
    )
    .run();
  return row.id;
}

export async function readMessage(id: string): Promise<MessageRecord> {
  const row = await env.DB.prepare("select * from messages where id = ?")
    .bind(id)
    .first<MessageRecord>();
  if (!row) throw new Error(`no message ${id}`);
  return row;
}

/** A workspace's notification settings document, stored as the settings route would. */
export async function setNotificationSettings(workspaceId: string, settings: unknown) {
  await env.DB.prepare(
    `insert into notification_settings (workspace_id, settings, updated_at) values (?, ?, ?)
     on conflict (workspace_id) do update set settings = excluded.settings`,
  )
    .bind(workspaceId, JSON.stringify(settings), Date.now())
    .run();
}

export const messageBody = (messageId: string, workspaceId: string): MessageQueueBody => ({
  kind: "message",
  messageId,
  workspaceId,
});

/** Hands queue messages to the Worker's queue handler as one MESSAGE_QUEUE batch. */
export const consumeMessages = (messages: QueuedMessage<MessageQueueBody>[], bindings: Env = env) =>
  consumeFrom(MESSAGE_QUEUE_NAME, messages, bindings);

/** Polls until `probe` answers something truthy (real queues and alarms run on their own). */
export async function until<T>(
  probe: () => Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

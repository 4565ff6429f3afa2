import { env } from "cloudflare:workers";
import { MESSAGE_QUEUE_NAME, type MessageQueueBody } from "../../src/messages/delivery/queue";
import type { Env } from "../../src/platform/env";
import { expect } from "vitest";
import { admin, type Client } from "./http";
import { createPublishableKey } from "./keys";
import { consumeFrom, type QueuedMessage } from "./queue";
import { createSalon, type Salon } from "./salon";
import { everyShard } from "./every-shard";

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
  await everyShard
    .prepare(
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
  const row = await everyShard
    .prepare("select * from messages where id = ?")
    .bind(id)
    .first<MessageRecord>();
  if (!row) throw new Error(`no message ${id}`);
  return row;
}

/** A workspace's notification settings document, stored as the settings route would. */
export async function setNotificationSettings(workspaceId: string, settings: unknown) {
  await everyShard
    .prepare(
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

/**
 * A salon (`createSalon(staffers)`) with a publishable key and both channels
 * on: every announcement is an e-mail and an SMS.
 */
export async function createMessagingSalon(
  staffers: number,
): Promise<{ salon: Salon; pk: Client }> {
  const salon = await createSalon(staffers);
  const pk = (await createPublishableKey(salon.ws)).api;
  const settings = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled: true },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      templates: {},
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  return { salon, pk };
}

/**
 * A weekday of its own per call, from the Monday `from` (Date.UTC ms), so
 * tests never share calendar time.
 */
export const weekdays = (from: number) => {
  let days = 0;
  return () => {
    const n = days++;
    const week = Math.floor(n / 5);
    return new Date(from + (week * 7 + (n % 5)) * 86_400_000).toISOString().slice(0, 10);
  };
};

/** A client address of its own per call: `prefix` and a counter (`"203.0.113."` → 203.0.113.1, …). */
export const addresses = (prefix: string) => {
  let n = 0;
  return () => `${prefix}${++n}`;
};

/** `api` (a publishable key) from one client address. */
export const fromAddress =
  (api: Client, ip: string) =>
  (path: string, sent: { method?: string; body?: unknown } = {}) =>
    api(path, { ...sent, headers: { "cf-connecting-ip": ip } });

/** The message rows (`columns`) of these bookings of a workspace, oldest first. */
export const bookingMessageRows = async <Row>(
  workspaceId: string,
  bookingIds: string[],
  columns: string,
): Promise<Row[]> =>
  (
    await everyShard
      .prepare(
        `select ${columns} from messages
       where workspace_id = ? and booking_id in (select value from json_each(?))
       order by created_at, kind, channel`,
      )
      .bind(workspaceId, JSON.stringify(bookingIds))
      .all<Row & Record<string, unknown>>()
  ).results;

/** All but reminders. */
export const announcements = <R extends { kind: string }>(rows: R[]) =>
  rows.filter((r) => r.kind !== "booking-reminder");

/** Written to go out (the log provider may already have sent it): neither skipped nor canceled. */
export const told = (r: { status: string }) => r.status === "scheduled" || r.status === "sent";

/** A row's fate: `told`, or its status and error. */
export const fate = (r: { status: string; error: string | null }) =>
  told(r) ? "told" : `${r.status}:${r.error ?? ""}`;

/** The manage token of the manage link in a message's text. */
export const tokenIn = (text: string) => {
  const link = /\/widget\/manage\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!link?.[1]) throw new Error(`no manage link in: ${text}`);
  return link[1];
};

/** A booking's messages as GET /messages lists them (oldest first), through `api` (a secret key). */
export const listedMessages = async <M>(api: Client, bookingId: string): Promise<M[]> => {
  const res = await api(`/messages?per_page=100&booking_uuid=${bookingId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** POST /bookings through `api`: a cut with staffer `staffer` of `salon` at `start`, for `customer` (request fields). */
export const bookFor = (
  salon: Salon,
  api: Client,
  start: string,
  customer: Record<string, string>,
  staffer = 0,
) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[staffer]?.uuid,
      reserved_on: start,
      ...customer,
    },
  });

/**
 * A message's status with `sent` read as `scheduled`: one due now may already have gone out
 * by the time a test lists it (its delivery runs on its own, sooner on an idle machine). What
 * such a test asserts is that it was written to go, not canceled nor skipped.
 */
export const writtenToGo = (status: string) => (status === "sent" ? "scheduled" : status);

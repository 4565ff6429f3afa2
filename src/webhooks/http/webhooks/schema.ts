import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "../../queries/outbox";
import { HEADER_NAME, HEADER_VALUE } from "../../rules/request";
import type { webhookDeliveries, webhooks } from "../../../db/schema";
import { toIso } from "../../../platform/clock";

const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "host",
  "user-agent",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);

const Pair = z.object({
  name: z
    .string()
    .trim()
    .min(1, "This field may not be empty.")
    .max(100, "At most 100 characters."),
  value: z.string().max(1000, "At most 1000 characters."),
});

const MAX_URL = 2048;
const METHODS = ["post", "put", "patch", "get", "delete"] as const;
const anyCase = (word: string) =>
  [...word].map((ch) => `[${ch.toUpperCase()}${ch.toLowerCase()}]`).join("");

/** Lists in a webhook: at most this many parameters, headers, success statuses and e-mails. */
export const MAX_LIST = 20;

const HeaderPair = Pair.extend({
  name: Pair.shape.name
    .regex(HEADER_NAME, "Must be a valid HTTP header name.")
    .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()), "This header is set by the platform."),
  value: Pair.shape.value.regex(
    HEADER_VALUE,
    "Must be a valid HTTP header value: no line breaks or control characters, only Latin-1 characters.",
  ),
});

const statusList = z
  .string()
  .max(200, "At most 200 characters.")
  .regex(/^\s*[1-5]\d\d(\s*,\s*[1-5]\d\d)*\s*$/, "Must be HTTP status codes separated by commas.")
  .transform((s) => s.split(",").map((x) => x.trim()))
  .refine((list) => list.length <= MAX_LIST, `At most ${MAX_LIST} status codes.`)
  .transform((list) => list.join(","))
  .openapi({ example: "200,201", description: `Up to ${MAX_LIST} comma-separated status codes` });

const anEmail = z.email();
const emailList = z
  .string()
  .max(2000, "At most 2000 characters.")
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length <= MAX_LIST, `At most ${MAX_LIST} addresses.`)
  .refine(
    (list) => list.every((e) => anEmail.safeParse(e).success),
    "Must be e-mail addresses separated by commas.",
  )
  .transform((list) => list.join(","));

const fields = {
  url: z.string().max(MAX_URL, `At most ${MAX_URL} characters.`).openapi({
    example: "https://example.com/hooks",
    format: "uri",
    maxLength: MAX_URL,
    // The scheme, as the URL check judges it (case-insensitive); the rest is in the description.
    pattern: "^[Hh][Tt][Tt][Pp][Ss]?://",
    description:
      "An absolute http(s) URL without credentials; private, loopback and link-local hosts are refused.",
  }),
  method: z
    .string()
    .transform((m) => m.toLowerCase())
    .pipe(z.enum(METHODS))
    .openapi({
      type: "string",
      // Any case, as HTTP writes it or not.
      pattern: `^(${METHODS.map(anyCase).join("|")})$`,
      example: "post",
    }),
  description: z.string().max(1000, "At most 1000 characters."),
  success_statuses: statusList,
  send_notification: z.boolean(),
  emails: emailList,
  events: z
    .array(z.enum(EVENT_TYPES))
    .min(1, "Subscribe to at least one event kind.")
    .max(EVENT_TYPES.length, `At most ${EVENT_TYPES.length} event kinds.`)
    .transform((list) => [...new Set(list)]),
  parameters: z.array(Pair).max(MAX_LIST, `At most ${MAX_LIST} parameters.`),
  headers: z.array(HeaderPair).max(MAX_LIST, `At most ${MAX_LIST} headers.`),
  tries: z
    .number()
    .int("Must be a whole number.")
    .min(1, "Must be at least 1.")
    .max(10, "May not be greater than 10."),
  timeout: z
    .number()
    .int("Must be a whole number.")
    .min(1, "Must be at least 1.")
    .max(30, "May not be greater than 30.")
    .openapi({ description: "Seconds" }),
};

/** PATCH changes any of the fields; create needs `url` and `events` on top. */
const OptionalFields = z.object(fields).partial();

export const CreateWebhookBody = OptionalFields.extend({ url: fields.url, events: fields.events })
  .superRefine((b, ctx) => {
    if (b.send_notification && !b.emails)
      ctx.addIssue({
        code: "custom",
        path: ["emails"],
        message: "Required when send_notification is true.",
      });
  })
  .openapi("CreateWebhook");

export const UpdateWebhookBody = OptionalFields.openapi("UpdateWebhook");

/** Webhook ids are row ids; 15 digits keep any id sent an exact JS integer. */
const MAX_WEBHOOK_ID = 999_999_999_999_999;

export const WebhookPath = z.object({
  webhook_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, `The webhook_id must be an integer from 1 to ${MAX_WEBHOOK_ID}.`)
    .transform(Number)
    .openapi({
      param: { name: "webhook_id", in: "path" },
      type: "integer",
      minimum: 1,
      maximum: MAX_WEBHOOK_ID,
      example: 1,
    }),
});

const PairOut = z.object({ name: z.string(), value: z.string() });

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    method: z.string(),
    description: z.string(),
    success_statuses: z.string(),
    status: z.enum(["enabled", "disabled"]),
    send_notification: z.boolean(),
    emails: z.string(),
    events: z.array(z.string()),
    parameters: z.array(PairOut),
    headers: z.array(PairOut),
    tries: z.number().int(),
    timeout: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Webhook");

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({ description: "whsec_… signing secret, shown only here" }),
}).openapi("WebhookWithSecret");

export const DeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    kind: z.enum(["http", "email"]),
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    success: z.boolean(),
    error: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    created_at: z.string(),
  })
  .openapi("WebhookDelivery");

export type Webhook = z.infer<typeof WebhookSchema>;

export const renderWebhook = (w: typeof webhooks.$inferSelect): Webhook => ({
  id: w.id,
  url: w.url,
  method: w.method,
  description: w.description,
  success_statuses: w.successStatuses,
  status: w.status,
  send_notification: w.sendNotification,
  emails: w.emails,
  events: w.events,
  parameters: w.parameters,
  headers: w.headers,
  tries: w.tries,
  timeout: w.timeout,
  created_at: toIso(w.createdAt),
  updated_at: toIso(w.updatedAt),
});

export const renderDelivery = (d: typeof webhookDeliveries.$inferSelect) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  kind: d.kind,
  attempt: d.attempt,
  status_code: d.statusCode,
  success: d.success,
  error: d.error,
  duration_ms: d.durationMs,
  created_at: toIso(d.createdAt),
});

import { z } from "zod";
import { normaliseOrigin } from "./rules/origins";
import { log } from "./log";

/** Where links in messages point when nothing says otherwise: `npm start`'s address. */
export const LOCAL_PUBLIC_ORIGIN = "http://localhost:8787";

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim());

/** The parts of a Google service account's JSON key that sign its token requests. */
const ServiceAccountSchema = z
  .object({
    client_email: z.string().min(1),
    private_key: z.string().includes("PRIVATE KEY"),
    token_uri: z.url().default("https://oauth2.googleapis.com/token"),
  })
  .transform((a) => ({
    clientEmail: a.client_email,
    privateKey: a.private_key,
    tokenUri: a.token_uri,
  }));

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * The Worker's plain-text settings (wrangler.toml `[vars]`, secrets): one
 * schema for all of them, parsed once per environment object at the entry
 * (`settingsAtEntry`), so a malformed value is named in the log at once and
 * no module reads a setting its own way.
 */
const ConfigSchema = z.object({
  /** Guards the management API; unset or empty lets nobody in. */
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || null),
  /**
   * Signs manage links (src/bookings/manage-link.ts); unset or empty issues none and accepts none.
   * A secret in production, at least 16 characters (`npm start` uses a development default).
   */
  MANAGE_TOKEN_SECRET: z
    .string()
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || v.length >= 16, "At least 16 characters."),
  /**
   * Keys the ids of customers the Worker adds (src/platform/rules/customer-id.ts), so a customer_uuid
   * does not give its phone away. A secret in production, at least 16 characters (`npm start`
   * and the tests use a development one); unset derives the unkeyed ids of before.
   */
  CUSTOMER_ID_SECRET: z
    .string()
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || v.length >= 16, "At least 16 characters."),
  /** "true" lets webhooks target private and loopback addresses (local dev and tests only). */
  ALLOW_PRIVATE_WEBHOOKS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** Base of the webhook retry backoff, seconds. */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().finite().min(0).default(30),
  /** How long fetching an external calendar may take, ms: 10 s, lower only in tests. */
  EXTERNAL_CALENDAR_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(10_000),
  /**
   * The origin customers reach the API at (`https://book.example.com`): every
   * link a message or an answer carries (manage, calendar, offer links) is
   * built on it, never on the request's Host header, which a caller chooses.
   */
  PUBLIC_ORIGIN: z
    .string()
    .optional()
    .transform((v) => v || LOCAL_PUBLIC_ORIGIN)
    .transform((v, ctx) => {
      const origin = normaliseOrigin(v);
      if (origin) return origin;
      ctx.addIssue({ code: "custom", message: "Must be an http(s) origin, without a path." });
      return z.NEVER;
    }),
  /**
   * Which providers deliver customer messages (docs/messages-delivery.md): a
   * provider is used when its secrets are set, else the `log` provider records
   * the message as sent (local development, tests).
   */
  RESEND_API_KEY: z.string().optional().transform(blank),
  RESEND_BASE_URL: z.url().default("https://api.resend.com"),
  /** The e-mail sender when the workspace names none. */
  EMAIL_FROM: z.string().optional().transform(blank),
  TWILIO_ACCOUNT_SID: z.string().optional().transform(blank),
  TWILIO_AUTH_TOKEN: z.string().optional().transform(blank),
  /** A Twilio number, or a messaging service (which picks the number); one of them is set. */
  TWILIO_FROM: z.string().optional().transform(blank),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional().transform(blank),
  TWILIO_BASE_URL: z.url().default("https://api.twilio.com"),
  /** Base of the customer message retry backoff, seconds. */
  MESSAGE_RETRY_BASE_SECONDS: z.coerce.number().finite().min(0).default(30),
  /**
   * Online payments (docs/payments.md): without a secret key no checkout can
   * be made. `npm start` and the tests point the API base at the project's own
   * Stripe-compatible test server.
   */
  STRIPE_SECRET_KEY: z.string().optional().transform(blank),
  STRIPE_WEBHOOK_SECRET: z.string().optional().transform(blank),
  STRIPE_API_BASE: z.url().default("https://api.stripe.com"),
  /**
   * Reserve with Google's real-time updates (src/reserve-with-google/notify): Google's Maps
   * Booking API base, the platform's partner id (the fallback for a workspace without its own
   * `partner_id`), and the service account's JSON key (a secret; its client_email, private_key
   * and token_uri are used; its Cloud project must be registered with every partner account
   * updates go out under). Without the key no update is queued, nor for a workspace without a
   * partner id when RWG_PARTNER_ID is unset. `npm start` and the tests point the base at
   * tools/google-local.
   */
  RWG_NOTIFY_URL: z.url().default("https://mapsbooking.googleapis.com"),
  RWG_PARTNER_ID: z.string().optional().transform(blank),
  /** Base of the real-time updates' retry backoff, seconds. */
  RWG_RETRY_BASE_SECONDS: z.coerce.number().finite().min(0).default(30),
  RWG_SERVICE_ACCOUNT_JSON: z
    .string()
    .optional()
    .transform(blank)
    .transform((v, ctx) => {
      if (v === null) return null;
      const account = ServiceAccountSchema.safeParse(parseJson(v));
      if (account.success) return account.data;
      ctx.addIssue({
        code: "custom",
        message: "Must be a service account's JSON key (client_email, private_key, token_uri).",
      });
      return z.NEVER;
    }),
});

const SettingsSchema = ConfigSchema.transform((s) => ({
  adminToken: s.ADMIN_TOKEN,
  manageTokenSecret: s.MANAGE_TOKEN_SECRET,
  customerIdSecret: s.CUSTOMER_ID_SECRET,
  allowPrivateWebhooks: s.ALLOW_PRIVATE_WEBHOOKS,
  webhookRetryBaseSeconds: s.WEBHOOK_RETRY_BASE_SECONDS,
  externalCalendarTimeoutMs: s.EXTERNAL_CALENDAR_TIMEOUT_MS,
  publicOrigin: s.PUBLIC_ORIGIN,
  delivery: {
    email: s.RESEND_API_KEY
      ? {
          apiKey: s.RESEND_API_KEY,
          baseUrl: s.RESEND_BASE_URL.replace(/\/+$/, ""),
          defaultFrom: s.EMAIL_FROM,
        }
      : null,
    sms:
      s.TWILIO_ACCOUNT_SID && s.TWILIO_AUTH_TOKEN
        ? {
            accountSid: s.TWILIO_ACCOUNT_SID,
            authToken: s.TWILIO_AUTH_TOKEN,
            baseUrl: s.TWILIO_BASE_URL.replace(/\/+$/, ""),
            from: s.TWILIO_FROM,
            messagingServiceSid: s.TWILIO_MESSAGING_SERVICE_SID,
          }
        : null,
    retryBaseSeconds: s.MESSAGE_RETRY_BASE_SECONDS,
  },
  stripe: s.STRIPE_SECRET_KEY
    ? {
        secretKey: s.STRIPE_SECRET_KEY,
        webhookSecret: s.STRIPE_WEBHOOK_SECRET,
        apiBase: s.STRIPE_API_BASE.replace(/\/+$/, ""),
      }
    : null,
  rwgNotify: s.RWG_SERVICE_ACCOUNT_JSON
    ? {
        baseUrl: s.RWG_NOTIFY_URL.replace(/\/+$/, ""),
        /** The platform's partner id: a workspace's own `partner_id` goes first. */
        partnerId: s.RWG_PARTNER_ID,
        account: s.RWG_SERVICE_ACCOUNT_JSON,
      }
    : null,
  rwgRetryBaseSeconds: s.RWG_RETRY_BASE_SECONDS,
}));

/** The Worker's settings, parsed: what every module reads (each reads its slice). */
export type Config = z.output<typeof SettingsSchema>;

/** The settings as the Worker's env carries them (Env has them among its bindings). */
export type Settings = { [K in keyof z.input<typeof ConfigSchema>]?: string | undefined };

/** One parse per env object (workerd hands the same one to every invocation): the settings, or why not. */
const parsed = new WeakMap<object, Config | Error>();

function parse(env: Settings): Config | Error {
  const known = parsed.get(env);
  if (known) return known;
  const result = SettingsSchema.safeParse(env);
  const outcome = result.success
    ? result.data
    : new Error(`Invalid Worker configuration: ${z.prettifyError(result.error)}`);
  parsed.set(env, outcome);
  if (outcome instanceof Error) log("error", outcome.message);
  // Not refused: a Worker that cannot add customers cannot take bookings. But without the key a
  // new customer's id is the phone's unkeyed hash (recoverable by trying numbers), so say so
  // where the operator looks, each time an environment is read.
  else if (!outcome.customerIdSecret)
    log(
      "error",
      "CUSTOMER_ID_SECRET is not set: new customers' ids are unkeyed hashes of their phone numbers (docs/deploy.md)",
    );
  return outcome;
}

/**
 * The Worker's settings, for a module to read its slice of; throws when one is
 * malformed (the entry has logged it and refuses requests already).
 */
export function configOf(env: Settings): Config {
  const outcome = parse(env);
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

/**
 * A copy of an env (a request's, with wrapped bindings) reads the settings its
 * original parsed, instead of parsing and logging again on every request.
 */
export function sameSettings<E extends object>(original: Settings, copy: E): E {
  parsed.set(copy, parse(original));
  return copy;
}

/**
 * The entry's reading (the Worker's fetch, queue and scheduled handlers, each
 * Durable Object's constructor): the settings, parsed once per env object, or
 * null when one is malformed, which is logged once, with every bad setting named.
 */
export function settingsAtEntry(env: Settings): Config | null {
  const outcome = parse(env);
  return outcome instanceof Error ? null : outcome;
}

import { z } from "zod";
import { normaliseOrigin } from "./rules/origins";
import { log } from "./log";

/** Where links in messages point when nothing says otherwise: `npm start`'s address. */
export const LOCAL_PUBLIC_ORIGIN = "http://localhost:8787";

/**
 * The Worker's plain-text settings (wrangler.toml `[vars]`, secrets), parsed
 * once per environment object with zod: a malformed value fails loudly at the
 * first use instead of being read differently in each place.
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
});

export interface Config {
  adminToken: string | null;
  manageTokenSecret: string | null;
  customerIdSecret: string | null;
  allowPrivateWebhooks: boolean;
  webhookRetryBaseSeconds: number;
  externalCalendarTimeoutMs: number;
  publicOrigin: string;
}

const parsed = new WeakMap<object, Config>();

/** The settings as the Worker's env carries them (Env has them among its bindings). */
export interface Settings {
  ADMIN_TOKEN?: string | undefined;
  MANAGE_TOKEN_SECRET?: string | undefined;
  CUSTOMER_ID_SECRET?: string | undefined;
  ALLOW_PRIVATE_WEBHOOKS?: string | undefined;
  WEBHOOK_RETRY_BASE_SECONDS?: string | undefined;
  EXTERNAL_CALENDAR_TIMEOUT_MS?: string | undefined;
  PUBLIC_ORIGIN?: string | undefined;
}

export function configOf(env: Settings): Config {
  const known = parsed.get(env);
  if (known) return known;
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    throw new Error(`Invalid Worker configuration: ${z.prettifyError(result.error)}`);
  }
  const config = {
    adminToken: result.data.ADMIN_TOKEN,
    manageTokenSecret: result.data.MANAGE_TOKEN_SECRET,
    customerIdSecret: result.data.CUSTOMER_ID_SECRET,
    allowPrivateWebhooks: result.data.ALLOW_PRIVATE_WEBHOOKS,
    webhookRetryBaseSeconds: result.data.WEBHOOK_RETRY_BASE_SECONDS,
    externalCalendarTimeoutMs: result.data.EXTERNAL_CALENDAR_TIMEOUT_MS,
    publicOrigin: result.data.PUBLIC_ORIGIN,
  };
  parsed.set(env, config);
  // Not refused: a Worker that cannot add customers cannot take bookings. But without the key a
  // new customer's id is the phone's unkeyed hash (recoverable by trying numbers), so say so
  // where the operator looks, each time an environment is read.
  if (!config.customerIdSecret)
    log(
      "error",
      "CUSTOMER_ID_SECRET is not set: new customers' ids are unkeyed hashes of their phone numbers (docs/deploy.md)",
    );
  return config;
}

import { z } from "zod";

/**
 * Which providers deliver messages, from the Worker's settings: a provider is
 * used when its secrets are set, else the `log` provider records the message
 * as sent (local development, tests). Parsed once per env object, like
 * src/platform/config.ts, so a malformed value fails loudly at the first delivery.
 */
const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim());

const Schema = z.object({
  RESEND_API_KEY: z.string().optional().transform(blank),
  RESEND_BASE_URL: z.url().default("https://api.resend.com"),
  EMAIL_FROM: z.string().optional().transform(blank),
  TWILIO_ACCOUNT_SID: z.string().optional().transform(blank),
  TWILIO_AUTH_TOKEN: z.string().optional().transform(blank),
  TWILIO_FROM: z.string().optional().transform(blank),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional().transform(blank),
  TWILIO_BASE_URL: z.url().default("https://api.twilio.com"),
  MESSAGE_RETRY_BASE_SECONDS: z.coerce.number().finite().min(0).default(30),
});

export interface ResendConfig {
  apiKey: string;
  baseUrl: string;
  /** The sender when the workspace names none. */
  defaultFrom: string | null;
}

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  baseUrl: string;
  /** A Twilio number, or a messaging service (which picks the number); one of them is set. */
  from: string | null;
  messagingServiceSid: string | null;
}

export interface DeliveryConfig {
  email: ResendConfig | null;
  sms: TwilioConfig | null;
  retryBaseSeconds: number;
}

export type DeliverySettings = { [K in keyof z.input<typeof Schema>]?: string | undefined };

const parsed = new WeakMap<object, DeliveryConfig>();

export function deliveryConfigOf(env: DeliverySettings): DeliveryConfig {
  const known = parsed.get(env);
  if (known) return known;
  const result = Schema.safeParse(env);
  if (!result.success) {
    throw new Error(`Invalid message delivery configuration: ${z.prettifyError(result.error)}`);
  }
  const s = result.data;
  const config: DeliveryConfig = {
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
  };
  parsed.set(env, config);
  return config;
}

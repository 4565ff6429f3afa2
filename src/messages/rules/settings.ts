import { isSupportedCountry } from "libphonenumber-js/max";
import { z } from "zod";
import { CHANNELS, MESSAGE_KINDS } from "./kinds";
import { LOCALE_PATTERN } from "./locale";
import { unknownVariables } from "./template";

export const MAX_REMINDERS = 3;
/** A day: the longest a waitlist offer may hold time for one customer. */
export const MAX_OFFER_MINUTES = 1440;
export const DEFAULT_OFFER_MINUTES = 30;
/** Two weeks: the earliest a reminder may go out before its booking. */
export const MAX_MINUTES_BEFORE = 20_160;
/** Messages a day that publishable-key and keyless requests may cause, unless the workspace says otherwise. */
export const DEFAULT_PUBLIC_MESSAGE_BUDGET = 500;
/** The most a workspace may allow (a day's budget is a bound, not a switch to turn it off). */
export const MAX_PUBLIC_MESSAGE_BUDGET = 10_000;
/** Countries SMS may go to: more than this is no longer "the countries the salon serves". */
export const MAX_SMS_COUNTRIES = 30;

/** An ISO 3166 alpha-2 code libphonenumber knows (upper-cased). */
const countryCode = z
  .string()
  // The pattern before the transform, so the published schema carries it.
  .regex(/^[A-Za-z]{2}$/, "Must be an ISO 3166 alpha-2 country code.")
  .transform((c) => c.toUpperCase())
  // A plain boolean: as a type guard it would narrow the stored settings to libphonenumber's union.
  .refine((c): boolean => isSupportedCountry(c), "Must be an ISO 3166 alpha-2 country code.");

/**
 * Refuses, on the field itself, a template naming a variable outside the
 * documented list. The length is checked first and alone: a text over it is
 * refused without being scanned at all.
 */
const templateText = (max: number) =>
  z
    .string()
    .max(max)
    .pipe(
      z.string().superRefine((text, ctx) => {
        const unknown = unknownVariables(text);
        if (unknown.length > 0)
          ctx.addIssue({
            code: "custom",
            message: `Unknown template variable: ${unknown.join(", ")}.`,
          });
      }),
    );

const Template = z.strictObject({
  subject: templateText(200).optional(),
  body: templateText(5000).pipe(z.string().min(1, "The body may not be empty.")),
});

export const NotificationSettingsSchema = z.strictObject({
  email: z.strictObject({
    enabled: z.boolean(),
    from_name: z.string().max(100),
    from_email: z.union([z.email(), z.literal("")]),
    reply_to: z.email().optional(),
  }),
  sms: z.strictObject({ enabled: z.boolean() }),
  reminders: z
    .array(
      z.strictObject({
        channel: z.enum(CHANNELS),
        minutes_before: z.number().int().min(1).max(MAX_MINUTES_BEFORE),
      }),
    )
    .max(MAX_REMINDERS, `At most ${MAX_REMINDERS} reminders.`),
  /** How long a waitlist offer holds its time for the customer it goes to (minutes). */
  waitlist_offer_minutes: z
    .number()
    .int()
    .min(1)
    .max(MAX_OFFER_MINUTES)
    .default(DEFAULT_OFFER_MINUTES)
    .describe("How long a waitlist offer holds its time for its customer, in minutes."),
  /**
   * The countries SMS go to (by the phone number's country); an SMS to a
   * number elsewhere is recorded `skipped` with `sms_country`. Absent when
   * saved: the workspace's own country.
   */
  sms_countries: z
    .array(countryCode)
    .min(1)
    .max(MAX_SMS_COUNTRIES)
    .refine((codes) => new Set(codes).size === codes.length, "Each country at most once.")
    .optional()
    .describe(
      "ISO 3166 alpha-2 codes of the countries SMS go to (1..30); an SMS to a number of another country is skipped with skip_reason sms_country. Omitted on save: the workspace's own country.",
    ),
  /**
   * Messages a day (UTC) that requests with a publishable key or without a key
   * (manage and offer links) may cause; past it they are `skipped` with
   * `workspace_quota` and one `quota-reached` event tells the salon.
   */
  public_message_budget: z
    .number()
    .int()
    .min(0)
    .max(MAX_PUBLIC_MESSAGE_BUDGET)
    .default(DEFAULT_PUBLIC_MESSAGE_BUDGET)
    .describe(
      "Messages per UTC day that publishable-key and keyless requests may cause (0..10000, default 500); past it they are skipped with skip_reason workspace_quota and one quota-reached webhook event is sent that day.",
    ),
  templates: z.partialRecord(
    z.enum(MESSAGE_KINDS),
    z.record(
      z.string().regex(LOCALE_PATTERN, "Must be a language tag such as de or de-AT."),
      Template,
    ),
  ),
});

export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** What a workspace that saved nothing gets: e-mail on, SMS off, one e-mail reminder a day before. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  email: { enabled: true, from_name: "", from_email: "" },
  sms: { enabled: false },
  reminders: [{ channel: "email", minutes_before: 1440 }],
  waitlist_offer_minutes: DEFAULT_OFFER_MINUTES,
  public_message_budget: DEFAULT_PUBLIC_MESSAGE_BUDGET,
  templates: {},
};

/** The settings with `sms_countries` filled in: the workspace's own country when none was saved. */
export const withSmsCountries = (
  settings: NotificationSettings,
  country: string,
): NotificationSettings & { sms_countries: string[] } => ({
  ...settings,
  sms_countries: settings.sms_countries ?? [country.toUpperCase()],
});

/** Stored settings, read back; anything that no longer parses falls back to the defaults. */
export function settingsFrom(stored: unknown): NotificationSettings {
  const parsed = NotificationSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

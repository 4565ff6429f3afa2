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

/** Refuses, on the field itself, a template naming a variable outside the documented list. */
const templateText = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      const unknown = unknownVariables(text);
      if (unknown.length > 0)
        ctx.addIssue({
          code: "custom",
          message: `Unknown template variable: ${unknown.join(", ")}.`,
        });
    });

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
  templates: {},
};

/** Stored settings, read back; anything that no longer parses falls back to the defaults. */
export function settingsFrom(stored: unknown): NotificationSettings {
  const parsed = NotificationSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

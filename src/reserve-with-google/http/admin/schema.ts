import { z } from "@hono/zod-openapi";

export const PartnerBody = z
  .object({
    enabled: z.boolean().openapi({ description: "Whether the booking server answers Google" }),
    username: z
      .string()
      .min(1)
      .max(128)
      .regex(
        /^[A-Za-z0-9._@-]+$/,
        "Letters, digits and . _ @ - only (HTTP Basic auth splits at the first colon).",
      )
      .openapi({
        description:
          "The Basic auth user name Google sends (set the same in Google's Partner Portal); unique over every workspace",
      }),
    password: z
      .string()
      .min(24, "At least 24 characters: a long random secret, as for an API key.")
      .max(256)
      .openapi({
        description:
          "The Basic auth password (24 to 256 characters, random). Stored as a SHA-256 hash; never shown again",
      }),
    partner_id: z
      .string()
      .regex(/^[0-9]{1,20}$/, "Google's numeric partner id: digits only, at most 20.")
      .optional()
      .openapi({
        description:
          "Google's partner id of the salon's own partner account (Partner Portal): its real-time updates go out under it. Absent: the platform's partner account (RWG_PARTNER_ID). The platform's Google Cloud project must be registered with that partner account",
        example: "20001",
      }),
  })
  .openapi("ReserveWithGooglePartnerSettings");
export type PartnerBody = z.infer<typeof PartnerBody>;

export const PartnerSchema = z
  .object({
    enabled: z.boolean(),
    username: z.string(),
    partner_id: z.string().nullable().openapi({
      description:
        "The partner id real-time updates go out under; null: the platform's (RWG_PARTNER_ID)",
    }),
    booking_server_path: z
      .string()
      .openapi({ description: "What Google is given as the booking server's URL path" }),
    updated_at: z.string().openapi({ description: "ISO 8601 instant" }),
  })
  .openapi("ReserveWithGooglePartner");

import { z } from "@hono/zod-openapi";
import { MOVE_STATUSES, type workspaces } from "../../../../db/schema";
import { toIso } from "../../../../platform/clock";
import { country, currency, locale, nonEmpty, timezone } from "../../../../platform/fields";
import {
  contrastOnWhite,
  HEX_COLOR,
  logoHref,
  type LogoRefusal,
  MAX_LOGO_URL,
  MIN_ACCENT_CONTRAST,
} from "../../../rules/brand";
import { BrandSchema, renderBrand } from "../../../views/brand";

export const CreateWorkspaceBody = z
  .object({
    name: nonEmpty(),
    country,
    currency,
    locale: locale.optional(),
    timezone,
  })
  .openapi("CreateWorkspace");

export const WorkspaceSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    country: z.string(),
    currency: z.string(),
    locale: z.string(),
    timezone: z.string(),
    brand: BrandSchema.nullable().openapi({
      description:
        "What the booking pages show of the salon; null: none (they show the location's name)",
    }),
    created_at: z.string(),
    shard: z.string().openapi({
      description: "The shard holding the workspace's data (`GET /shards` lists them)",
      example: "SHARD_0",
    }),
    move: z
      .object({
        status: z.enum(MOVE_STATUSES),
        copied_rows: z.number().int(),
      })
      .nullable()
      .optional()
      .openapi({
        description:
          "`GET /workspaces/{ws}` only: the workspace's latest move between shards (`POST /workspaces/{ws}/move`), null when it was never moved",
      }),
  })
  .openapi("Workspace");

export const renderWorkspace = (
  row: typeof workspaces.$inferSelect,
): z.infer<typeof WorkspaceSchema> => ({
  uuid: row.id,
  name: row.name,
  country: row.country,
  currency: row.currency,
  locale: row.locale,
  timezone: row.timezone,
  brand: renderBrand(row),
  created_at: toIso(row.createdAt),
  shard: row.shard,
});

export const CreatedWorkspaceSchema = WorkspaceSchema.extend({ api_key: z.string() }).openapi(
  "CreatedWorkspace",
);

export const WorkspaceParams = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
});

const LOGO_REFUSED: Record<LogoRefusal, string> = {
  not_https: "Must be an https: URL.",
  credentials: "Must not carry a username or password.",
  too_long: `At most ${MAX_LOGO_URL} characters once normalised.`,
};

const logoUrl = z
  .string()
  .max(MAX_LOGO_URL, `At most ${MAX_LOGO_URL} characters.`)
  .transform((text, ctx) => {
    const taken = logoHref(text);
    if ("href" in taken) return taken.href;
    ctx.issues.push({ code: "custom", input: text, message: LOGO_REFUSED[taken.refused] });
    return z.NEVER;
  })
  .openapi({ maxLength: MAX_LOGO_URL, example: "https://example.com/logo.svg" });

const accentColor = z
  .string()
  .regex(HEX_COLOR, "Must be a colour in the form #rrggbb.")
  .transform((hex) => hex.toLowerCase())
  .check((ctx) => {
    const ratio = contrastOnWhite(ctx.value);
    if (ratio < MIN_ACCENT_CONTRAST) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `Its contrast against white is ${ratio.toFixed(2)}:1; it must be at least ${MIN_ACCENT_CONTRAST}:1 (WCAG 2 AA) to be readable on the booking pages.`,
      });
    }
  })
  .openapi({ pattern: "^#[0-9A-Fa-f]{6}$", example: "#1a5fb4" });

const BrandBody = z
  .object({
    name: nonEmpty(80).openapi({ maxLength: 80 }),
    logo_url: logoUrl
      .nullable()
      .optional()
      .openapi({
        description: `An https: URL without a username or password, stored (and answered) in its normalised form: trimmed, as a URL parser writes it (host lower-cased, characters escaped); at most ${MAX_LOGO_URL} characters as sent and as normalised. null removes the logo`,
      }),
    accent_color: accentColor.nullable().optional().openapi({
      description:
        "`#rrggbb`, either case (stored lower-case); its WCAG 2 contrast against white must be at least 4.5:1. null removes it",
    }),
  })
  .openapi("BrandInput", {
    description:
      "The brand's name is always sent; logo_url and accent_color change only when sent (null removes one)",
  });

export const UpdateWorkspaceBody = z
  .object({
    name: nonEmpty(),
    brand: BrandBody.nullable().openapi({
      description: "null removes the brand, logo and colour too",
    }),
  })
  .partial()
  .openapi("UpdateWorkspace");

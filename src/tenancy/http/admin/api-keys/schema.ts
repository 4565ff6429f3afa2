import { z } from "@hono/zod-openapi";
import { normaliseOrigin } from "../../../../platform/rules/origins";

export const MAX_ALLOWED_ORIGINS = 20;

const KeyKindSchema = z.enum(["secret", "publishable"]).openapi({
  description:
    "`secret` (`sk_…`): the whole public API, for servers; never put it in a web page. " +
    "`publishable` (`pk_…`): safe in a web page, limited to what a booking widget needs, and only from `allowed_origins`.",
});

export const CreateApiKeySchema = z
  .object({
    kind: KeyKindSchema.default("secret"),
    allowed_origins: z
      .array(z.string().max(200, "At most 200 characters."))
      .max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} origins.`)
      .optional()
      .openapi({
        description:
          "Publishable keys only (at least one): the web origins (`https://salon.example`) whose pages may call with the key. The Worker's own widget page is always allowed.",
        example: ["https://salon.example"],
      }),
  })
  .superRefine((body, ctx) => {
    const origins = body.allowed_origins;
    if (body.kind === "secret") {
      if (origins !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["allowed_origins"],
          message: "Secret keys are never used from browsers; only publishable keys have origins.",
        });
      }
      return;
    }
    if (!origins || origins.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["allowed_origins"],
        message: "A publishable key needs at least one allowed origin.",
      });
      return;
    }
    origins.forEach((origin, i) => {
      if (normaliseOrigin(origin) === null) {
        ctx.addIssue({
          code: "custom",
          path: ["allowed_origins", i],
          message: "Must be an origin such as https://salon.example (scheme, host and port only).",
        });
      }
    });
  })
  .openapi("CreateApiKey");

export type CreateApiKey = z.infer<typeof CreateApiKeySchema>;

/** The origins as stored: normalised and without repeats (validation already refused bad ones). */
export const storedOrigins = (body: CreateApiKey): string[] => [
  ...new Set((body.allowed_origins ?? []).map((o) => normaliseOrigin(o) ?? o)),
];

export const ApiKeySchema = z
  .object({
    id: z.string(),
    kind: KeyKindSchema,
    api_key: z.string().openapi({ description: "Shown once; only its hash is stored." }),
    allowed_origins: z.array(z.string()),
  })
  .openapi("ApiKey");

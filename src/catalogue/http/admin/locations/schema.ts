import { z } from "@hono/zod-openapi";
import { country, nonEmpty, oneLine, timezone, uuid } from "../../../../platform/fields";
import { isE164Phone } from "../../../../platform/rules/phone";
import { addressColumns } from "../../../../platform/rules/address";

const MINUTES_IN_A_YEAR = 60 * 24 * 365;

const minutes = (max: number) =>
  z
    .number()
    .int("Must be a whole number of minutes.")
    .min(0, "May not be negative.")
    .max(max, `May not be greater than ${max}.`);

const policyText = z.string().trim().max(5000, "At most 5000 characters.").nullable();

const AddressBody = z
  .object({
    // Each line goes into the one-line location_address of messages (SMS too): one line each.
    line1: oneLine(120),
    line2: oneLine(120, 0).nullable().optional().openapi({
      description:
        "Empty or null: none. One line, at most 120 characters (trimmed): no line breaks, tabs, control or text-direction characters",
      maxLength: 120,
    }),
    city: oneLine(80),
    postal_code: oneLine(20),
    country,
  })
  .openapi("AddressInput", {
    description: "A postal address, set whole (it replaces the one stored); null clears it",
  });

const phone = z
  .string()
  // E.164 is at most 15 digits after the `+`: the bound the OpenAPI document states.
  .max(16, "At most 16 characters (E.164).")
  .refine(isE164Phone, "Must be a valid phone number in E.164 form, such as +4930123456.")
  .openapi({ example: "+493012345678", description: "E.164 (`+` and digits), a real number" });

const degrees = (max: number, what: string) =>
  z
    .number()
    .min(-max, `Must be from -${max} to ${max}.`)
    .max(max, `Must be from -${max} to ${max}.`)
    .nullable()
    .openapi({
      description: `WGS 84 ${what} in degrees (-${max}..${max}); sent together with the other coordinate, null clears both`,
      example: max === 90 ? 52.520008 : 13.404954,
    });

/** Fields a location is created with; every one but name and timezone has a default. */
export const LocationFields = {
  name: nonEmpty(),
  timezone,
  slot_step: z.number().int().min(5).max(240),
  min_notice: minutes(MINUTES_IN_A_YEAR),
  cancellation_offset: minutes(MINUTES_IN_A_YEAR).openapi({
    description:
      "Minutes before a booking's start after which a publishable key may no longer cancel it (0, the default: no limit)",
  }),
  change_offset: minutes(MINUTES_IN_A_YEAR).openapi({
    description:
      "Minutes before a booking's start after which a publishable key may no longer reschedule it (0, the default: no limit)",
  }),
  policy_text: policyText,
  cancellation_text: policyText,
  change_text: policyText,
  address: AddressBody.nullable(),
  phone: phone.nullable(),
  latitude: degrees(90, "latitude"),
  longitude: degrees(180, "longitude"),
};

/** Coordinates are a pair: both set, both null, or neither sent (else the missing one is named). */
const bothCoordinates = (
  body: { latitude?: number | null; longitude?: number | null },
  ctx: z.RefinementCtx,
) => {
  const sent = (v: number | null | undefined) =>
    v === undefined ? "absent" : v === null ? "null" : "set";
  const lat = sent(body.latitude);
  const lng = sent(body.longitude);
  if (lat === lng) return;
  const [missing, other] =
    lat === "set" || (lat === "null" && lng === "absent")
      ? (["longitude", "latitude"] as const)
      : (["latitude", "longitude"] as const);
  ctx.addIssue({
    code: "custom",
    path: [missing],
    message:
      body[other] === null
        ? `Null together with ${other}: the coordinates are cleared together.`
        : `Required with ${other}: a location's coordinates are set together.`,
  });
};

export const UpdateLocationBody = z
  .object(LocationFields)
  .partial()
  .superRefine(bothCoordinates)
  .openapi("UpdateLocation");

/** Name and timezone are required; the table's defaults fill whatever else is left out. */
export const CreateLocationBody = z
  .object(LocationFields)
  .partial()
  .required({ name: true, timezone: true })
  .superRefine(bothCoordinates)
  .openapi("CreateLocation");

export const LocationParams = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
  uuid: uuid("location uuid"),
});

/** Body fields (snake case) → location columns, only those sent. */
export function locationChanges(body: z.infer<typeof UpdateLocationBody>) {
  const changes = {
    name: body.name,
    timezone: body.timezone,
    slotStep: body.slot_step,
    minNotice: body.min_notice,
    cancellationOffset: body.cancellation_offset,
    changeOffset: body.change_offset,
    policyText: body.policy_text,
    cancellationText: body.cancellation_text,
    changeText: body.change_text,
    phone: body.phone,
    latitude: body.latitude,
    longitude: body.longitude,
    ...(body.address === undefined ? {} : addressColumns(body.address)),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<
    typeof changes
  >;
}

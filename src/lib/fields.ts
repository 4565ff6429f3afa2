import { z } from "@hono/zod-openapi";
import { isSupportedCountry } from "libphonenumber-js";

/** Reusable field schemas: one definition each, so rules and docs never drift apart. */

export const uuid = (what = "id") =>
  z.uuid({ message: `The ${what} must be a valid UUID.` }).transform((v) => v.toLowerCase());

export const timezone = z
  .string()
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return tz.includes("/") || tz === "UTC";
    } catch {
      return false;
    }
  }, "Must be an IANA time-zone identifier such as Europe/Berlin.")
  .openapi({ example: "Europe/Berlin" });

export const country = z
  .string()
  .transform((c) => c.toUpperCase())
  .refine(
    (c) => /^[A-Z]{2}$/.test(c) && isSupportedCountry(c),
    "Must be an ISO 3166 alpha-2 country code.",
  )
  .openapi({ example: "DE" });

const currencies = new Set(Intl.supportedValuesOf("currency"));
export const currency = z
  .string()
  .transform((c) => c.toUpperCase())
  .refine((c) => currencies.has(c), "Must be an ISO 4217 currency code.")
  .openapi({ example: "EUR" });

export const locale = z
  .string()
  .refine((l) => {
    try {
      return Intl.getCanonicalLocales(l).length === 1;
    } catch {
      return false;
    }
  }, "Must be a BCP 47 locale such as en or de-DE.")
  .openapi({ example: "en" });

export const nonEmpty = (max = 255) =>
  z.string().trim().min(1, "This field may not be empty.").max(max, `At most ${max} characters.`);

export const optionalText = (max = 5000) => z.string().max(max, `At most ${max} characters.`);

export const money = z
  .number()
  .int("Must be an integer amount in minor units.")
  .min(0, "May not be negative.")
  .max(1_000_000_000_000, "Is too large.");

export const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Must be a time of day HH:MM.");

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date YYYY-MM-DD.")
  // Engines roll 2030-02-30 over to March; a real date survives the round trip unchanged.
  .refine((d) => {
    const ms = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === d;
  }, "Must be a real calendar date.");

/** A list filter bound: an ISO 8601 instant with any offset, as epoch milliseconds. */
export const instantFilter = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 instant such as 2030-05-04T00:00:00Z." })
  .transform((v) => Date.parse(v));

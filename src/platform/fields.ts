import { z } from "@hono/zod-openapi";
import { isSupportedCountry } from "libphonenumber-js";
import { MAX_CAPACITY } from "./rules/capacity";
import { MAX_ORDER_AMOUNT, MAX_QUANTITY, MAX_UNIT_PRICE } from "./rules/money";

/** Reusable field schemas: one definition each, so rules and docs never drift apart. */

export const uuid = (what = "id") =>
  z.uuid({ message: `The ${what} must be a valid UUID.` }).transform((v) => v.toLowerCase());

/** Longer than any IANA zone name (the longest is 32 characters). */
const MAX_TIMEZONE = 64;

export const timezone = z
  .string()
  .max(MAX_TIMEZONE, `At most ${MAX_TIMEZONE} characters.`)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return tz.includes("/") || tz === "UTC";
    } catch {
      return false;
    }
  }, "Must be an IANA time-zone identifier such as Europe/Berlin.")
  .openapi({ example: "Europe/Berlin", maxLength: MAX_TIMEZONE });

export const country = z
  .string()
  .transform((c) => c.toUpperCase())
  .refine(
    (c) => /^[A-Z]{2}$/.test(c) && isSupportedCountry(c),
    "Must be an ISO 3166 alpha-2 country code.",
  )
  .openapi({ example: "DE", pattern: "^[A-Za-z]{2}$" });

const currencies = new Set(Intl.supportedValuesOf("currency"));
export const currency = z
  .string()
  .transform((c) => c.toUpperCase())
  .refine((c) => currencies.has(c), "Must be an ISO 4217 currency code.")
  .openapi({ example: "EUR", pattern: "^[A-Za-z]{3}$" });

/** BCP 47 tags in practice are far shorter; RFC 5646 asks parsers to take at least 35. */
const MAX_LOCALE = 35;

export const locale = z
  .string()
  .max(MAX_LOCALE, `At most ${MAX_LOCALE} characters.`)
  .refine((l) => {
    try {
      return Intl.getCanonicalLocales(l).length === 1;
    } catch {
      return false;
    }
  }, "Must be a BCP 47 locale such as en or de-DE.")
  .openapi({ example: "en", maxLength: MAX_LOCALE });

export const nonEmpty = (max = 255) =>
  z.string().trim().min(1, "This field may not be empty.").max(max, `At most ${max} characters.`);

/** A person's name part (first, middle, last): a line on an envelope, not a paragraph. */
export const MAX_NAME = 100;

/**
 * What a name may not hold: control characters (C0 and C1, so CR, LF, TAB,
 * NEL, NUL), line and paragraph separators, and the text-direction marks,
 * embeddings, overrides and isolates that make a name read as something else.
 * Names are written into the salon's e-mails, subject lines included.
 */
const NOT_IN_NAME = /[\p{Cc}\p{Zl}\p{Zp}\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;

/** A customer's or staffer's first, middle or last name: one line, 1 to MAX_NAME characters. */
export const personName = () =>
  z
    .string()
    .refine(
      (v) => !NOT_IN_NAME.test(v),
      "A name is one line of text: no line breaks, tabs, control or text-direction characters.",
    )
    .trim()
    .min(1, "This field may not be empty.")
    .max(MAX_NAME, `At most ${MAX_NAME} characters.`)
    .openapi({
      maxLength: MAX_NAME,
      description: `One line, at most ${MAX_NAME} characters: no line breaks, tabs, control or text-direction characters`,
    });

/**
 * Other one-line text written into messages (an address line goes into an
 * SMS's one-line location_address): the name rule's characters refused before
 * trimming, so a line break at an end is refused, not silently cut.
 */
export const oneLine = (max: number, min = 1) =>
  z
    .string()
    .refine(
      (v) => !NOT_IN_NAME.test(v),
      "One line of text: no line breaks, tabs, control or text-direction characters.",
    )
    .trim()
    .min(min, "This field may not be empty.")
    .max(max, `At most ${max} characters.`)
    .openapi({
      maxLength: max,
      description: `One line, at most ${max} characters (trimmed): no line breaks, tabs, control or text-direction characters`,
    });

export const optionalText = (max = 5000) => z.string().max(max, `At most ${max} characters.`);

const minorUnits = (max: number, what: string) =>
  z
    .number()
    .int("Must be an integer amount in minor units.")
    .min(0, "May not be negative.")
    .max(max, `May not be greater than ${max}.`)
    .openapi({ description: `${what}, integer minor units, at most ${max}` });

/**
 * A price of one unit (catalogue prices, till prices, voucher prices, stock
 * costs): at most 10^9 minor units, so that no order total can leave the range
 * of exact JS integers (see MAX_UNIT_PRICE in domain/money.ts).
 */
export const money = minorUnits(MAX_UNIT_PRICE, "Unit price");

/** An amount taken off or paid on a whole order: at most the largest order's base amount. */
export const orderAmount = minorUnits(MAX_ORDER_AMOUNT, "Amount");

/** Seats of a group service (a party's size); above the service's capacity is 422. */
export const seats = z
  .number()
  .int("Must be a whole number.")
  .min(1, "Must be at least 1.")
  .max(MAX_CAPACITY, `May not be greater than ${MAX_CAPACITY}.`)
  .openapi({
    description: `Seats booked (party size), 1 to the service's capacity (at most ${MAX_CAPACITY}); default 1. The price is per seat.`,
  });

/** Units on one order line. */
export const quantity = z
  .number()
  .int("Must be a whole number.")
  .min(1, "Must be at least 1.")
  .max(MAX_QUANTITY, `May not be greater than ${MAX_QUANTITY}.`)
  .openapi({ description: `1 to ${MAX_QUANTITY}` });

export const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Must be a time of day HH:MM.");

/** Dates and instants: one rule for all of them (src/platform/instant.ts). */
export { calendarDate, dateOrInstant, instant, instantMs } from "./instant";

/**
 * Refinement of a `{ starts_at, ends_at }` body: the end after the start, and
 * the range at most `maxDays` long (`what` names the range in the message).
 */
export const blockRange =
  (maxDays: number, what: string) =>
  (body: { starts_at: string; ends_at: string }, ctx: z.RefinementCtx) => {
    const start = Date.parse(body.starts_at);
    const end = Date.parse(body.ends_at);
    if (end <= start) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "Must be after starts_at." });
    } else if (end - start > maxDays * 86_400_000) {
      ctx.addIssue({
        code: "custom",
        path: ["ends_at"],
        message: `${what} may span at most ${maxDays} days.`,
      });
    }
  };

// The "max" metadata validates against each country's real number ranges; the
// default "min" set only checks lengths and would let made-up numbers become a
// customer's identity.
import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";

// libphonenumber gives up on long input anyway; the cap keeps parsing cheap on hostile input.
const MAX_INPUT = 64;

/**
 * A phone number in E.164, or null when it is not a valid number. National
 * forms are read as numbers of `country` (the workspace's); a number written
 * with its own `+` or international prefix keeps its own country.
 */
export function normalisePhone(input: string, country: string): string | null {
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_INPUT) return null;
  const region = country.toUpperCase();
  const parsed = parsePhoneNumberFromString(text, isSupportedCountry(region) ? region : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** E.164 as written: `+`, then 2 to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * Whether `input` is a phone number already in E.164 that is a real number by the "max"
 * metadata (a salon's own phone, shown to customers as stored: no national forms accepted).
 */
export function isE164Phone(input: string): boolean {
  if (!E164.test(input)) return false;
  const parsed = parsePhoneNumberFromString(input);
  return parsed?.isValid() === true && parsed.number === input;
}

/**
 * How a stored E.164 number is written for people: the international form with the country's
 * own grouping ("+49 30 12345678"); the number as stored if the metadata cannot read it.
 */
export function phoneForDisplay(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

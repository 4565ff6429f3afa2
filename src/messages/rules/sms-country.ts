import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * The country of an E.164 number as its numbering plan says (a +1 number is
 * the US, Canada or another NANP country by its area code); null when the
 * number names none.
 */
export function phoneCountry(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
}

/** Whether an SMS to `e164` may go out: its country is one the workspace serves (absent list: no limit). */
export const smsAllowed = (e164: string, countries: readonly string[] | undefined): boolean => {
  if (!countries) return true;
  const country = phoneCountry(e164);
  return country !== null && countries.includes(country);
};

// The same metadata as the API (max), not the smaller length-only set: a number the widget
// accepts is one the API accepts, so a customer never gets past this step to be refused.
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";

/** The region of the browser's language (de-AT → AT), the likeliest country of a number typed without +. */
export function browserCountry(languages: readonly string[]): CountryCode | undefined {
  for (const lang of languages) {
    const region = lang.split("-")[1];
    if (region && /^[A-Z]{2}$/i.test(region)) return region.toUpperCase() as CountryCode;
  }
  return undefined;
}

/** The number in E.164, or null when it cannot be a valid phone number. */
export function normalisePhone(input: string, country: CountryCode | undefined): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), country);
  return parsed && parsed.isValid() ? parsed.number : null;
}

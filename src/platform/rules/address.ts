/** A location's postal address as the API shows it (line2 null when there is none). */
export interface Address {
  line1: string;
  line2: string | null;
  city: string;
  postal_code: string;
  country: string;
}

/** The address columns of a location; all null when it has none. */
export interface AddressColumns {
  addressLine1: string | null;
  addressLine2: string | null;
  addressCity: string | null;
  addressPostalCode: string | null;
  addressCountry: string | null;
}

/** The stored columns as an address, or null when a required part is missing (none was set). */
export function addressOf(row: AddressColumns): Address | null {
  const { addressLine1, addressCity, addressPostalCode, addressCountry } = row;
  if (addressLine1 === null || addressCity === null) return null;
  if (addressPostalCode === null || addressCountry === null) return null;
  return {
    line1: addressLine1,
    line2: row.addressLine2,
    city: addressCity,
    postal_code: addressPostalCode,
    country: addressCountry,
  };
}

/** An address (or null: clear it) as the columns to write, every one of them. */
export const addressColumns = (
  address: (Omit<Address, "line2"> & { line2?: string | null | undefined }) | null,
): AddressColumns => ({
  addressLine1: address?.line1 ?? null,
  addressLine2: address?.line2 || null,
  addressCity: address?.city ?? null,
  addressPostalCode: address?.postal_code ?? null,
  addressCountry: address?.country ?? null,
});

/** The country's name in `locale` (English when the locale is unknown), else its code. */
function countryName(code: string, locale: string): string {
  for (const tag of [locale, "en"]) {
    try {
      const name = new Intl.DisplayNames([tag], { type: "region", fallback: "none" }).of(code);
      if (name) return name;
    } catch {
      // A tag Intl refuses: the next one.
    }
  }
  return code;
}

/**
 * The address on one line, as messages (`location_address`) and the booking pages write it:
 * "line1, line2, postal_code city, country" with the country named in `locale`. Empty
 * parts are left out; no address is the empty string.
 */
export function addressLine(address: Address | null, locale: string): string {
  if (!address) return "";
  return [
    address.line1,
    address.line2,
    `${address.postal_code} ${address.city}`.trim(),
    countryName(address.country, locale),
  ]
    .map((part) => part?.trim() ?? "")
    .filter((part) => part.length > 0)
    .join(", ");
}

import type { UserInformation } from "../wire/requests";
import type { UserInformationOut } from "../wire/responses";
import { unset } from "../wire/json";

/** The user's information written back as Google sent it (proto3 JSON: defaults left out). */
export function userInformationOut(u: UserInformation): UserInformationOut {
  const address = u.address
    ? unset({
        country: u.address.country || undefined,
        locality: u.address.locality || undefined,
        region: u.address.region || undefined,
        postal_code: u.address.postal_code || undefined,
        street_address: u.address.street_address || undefined,
      })
    : undefined;
  return unset({
    user_id: u.user_id || undefined,
    given_name: u.given_name || undefined,
    family_name: u.family_name || undefined,
    address: address as Record<string, string> | undefined,
    telephone: u.telephone || undefined,
    email: u.email || undefined,
    language_code: u.language_code || undefined,
  });
}

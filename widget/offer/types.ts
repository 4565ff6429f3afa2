/** GET /waitlist-offers/{token}: the time an offer holds. */
export interface OfferView {
  entry_uuid: string;
  customer_first_name: string;
  locale: string;
  location_name: string;
  timezone: string;
  start: string;
  expires_at: string;
  services: {
    service_uuid: string;
    name: string;
    staffer_first_name: string | null;
    starts_at: string;
    ends_at: string;
  }[];
}

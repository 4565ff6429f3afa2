import type { SalonView } from "../page/salon";

/** GET /waitlist-offers/{token}: the time an offer holds, or the booking it became. */
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
  /** `booked`: booked through this link, reopened (absent from an older API: open). */
  status?: "open" | "booked";
  /** The booking the offer became; null while open. */
  booking?: OfferBooking | null;
  /** The salon's face and contact (absent from an older API). */
  salon?: SalonView | null;
}

export interface OfferBooking {
  uuid: string;
  start_time: string;
  end_time: string;
  manage_url: string | null;
}

/** The answer to booking the offer: the customer's booking, with its manage link. */
export interface BookedAnswer {
  uuid: string;
  start_time: string;
  end_time: string;
  links?: { type: string; link: string }[];
}

/** The parts of the public API's responses the widget reads. */

export interface Service {
  uuid: string;
  name: string;
  price_formatted: string;
  discount: number;
  discount_formatted: string;
  price: number;
  currency: string;
  duration: { value: number; label: string };
  is_duration_hidden: boolean;
  is_price_hidden: boolean;
  starting_at: boolean;
  live: boolean;
  live_in_widget: boolean;
  locations: { uuid: string; name: string }[];
  staffers: { uuid: string }[];
  /** Seats per session: above 1 a group service (a class), booked for a party size. */
  capacity?: number;
}

/** A staffer as the API shows them to a publishable key (only those active in the widget). */
export interface Staffer {
  uuid: string;
  first_name: string;
  last_name: string | null;
  locations: { uuid: string; name: string }[];
}

export interface Page<T> {
  data: T[];
  meta: { last_page: number };
}

export interface TimeSlots {
  timezone: string;
  /** `quantity`: for a group service, the seats left at that start. */
  dates: {
    date: string;
    slots: { start: string; price_formatted: string; quantity?: number }[];
  }[];
}

export interface CartSlots {
  data: { dates: { date: string; slot: { start: string; price_formatted: string } }[] }[];
}

export type FieldRule = "required" | "optional" | "hidden";

export interface BookingForm {
  customer_email: FieldRule;
  customer_last_name: FieldRule;
  customer_middle_name: FieldRule;
  booking_comment: FieldRule;
}

export type PaymentMode = "none" | "card_on_file" | "deposit" | "prepay";

/** What the customer pays or guarantees online (minor units), fixed when the time was held. */
export interface PaymentTerms {
  mode: PaymentMode;
  amount_due_now: number;
  currency: string;
  late_cancel: { window_minutes: number; fee: number } | null;
  no_show_fee: number | null;
}

export interface ReservationCheckout {
  status: "open" | "complete" | "expired";
  /** The booking it became once paid; null until then (and when the time was lost). */
  booking_uuid: string | null;
  /** Once booked: the booking's manage page (absent from an older API). */
  manage_url?: string | null;
  /** Once booked: where its confirmation went (absent from an older API). */
  confirmation_sent_to?: SentTo[];
}

export interface Reservation {
  uuid: string;
  expires_at: string;
  /** null (or absent, from an older API): nothing to pay, the booking goes direct. */
  payment?: PaymentTerms | null;
  checkout?: ReservationCheckout | null;
  items?: {
    datetime_start: string;
    services: { service_uuid: string; staffer_uuid: string; quantity: number }[];
  }[];
}

/** POST /reservations/{uuid}/checkout: the provider's hosted page. */
export interface Checkout {
  checkout_url: string;
  expires_at: string;
}

/** A confirmation message written for the booking just made. */
export interface SentTo {
  channel: "email" | "sms";
  to: string;
}

export interface Booking {
  uuid: string;
  start_time: string;
  end_time: string;
  /** `ical` (the calendar file) and, in the answer to the customer's own booking, `manage`. */
  links: { type: string; link: string }[];
  /** Only in the answer to the customer's own booking (absent from an older API). */
  confirmation_sent_to?: SentTo[];
}

/** The salon's own look, as its operator set it (every field may be absent from an older API). */
export interface Brand {
  name: string;
  logo_url: string | null;
  accent_color: string | null;
}

/** GET /workspace. */
export interface PublicWorkspace {
  name: string;
  locale: string;
  currency: string;
  brand: Brand | null;
}

export interface Address {
  line1: string;
  line2: string | null;
  city: string;
  postal_code: string;
  country: string;
}

/** A location as GET /locations shows it; address and phone are absent from an older API. */
export interface PublicLocation {
  uuid: string;
  name: string;
  address?: Address | null;
  phone?: string | null;
  phone_display?: string | null;
}

/** The salon's face on the widget: what its header and help block show. */
export interface SalonFace {
  name: string;
  logo_url: string | null;
  accent_color: string | null;
  address: Address | null;
  /** E.164, for the tel: link. */
  phone: string | null;
  /** The same number as people write it ("+49 30 12345678"); the E.164 form from an older API. */
  phone_display: string | null;
}

/** One start the customer can pick: a UTC instant, with the staffer an alternative names. */
export interface SlotChoice {
  start: string;
  staffer_uuid?: string;
}

export interface Alternative {
  start: string;
  staffer_uuid?: string;
}

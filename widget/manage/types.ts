import type { SalonView } from "../page/salon";

/** The parts of the public Booking the manage page reads. */
export interface ManagedBooking {
  uuid: string;
  start_time: string;
  end_time: string;
  /**
   * The zone the booking's client asked times in (the widget sends the customer's browser
   * zone): NOT the salon's; the page reads `ManagedView.timezone`.
   */
  timezone: string;
  is_canceled: boolean;
  policy: {
    policy_text: string | null;
    is_cancelable: boolean;
    cancellation_text: string | null;
    is_changeable: boolean;
    change_text: string | null;
  };
  ordered_services: {
    uuid: string;
    name: string;
    staffer_uuid: string | null;
    duration: { value: number };
  }[];
}

/** A package of the booking's customer, as the manage page lists it. */
export interface ManagedPackage {
  uuid: string;
  name: string;
  status: "active" | "used_up" | "past_due";
  expires_at: string;
  credits: {
    service_uuids: string[];
    service_names: string[];
    total: number;
    remaining: number;
    reserved: number;
    expires_at: string;
  }[];
}

/** The parts of `GET /manage/{token}` the manage page reads. */
export interface ManagedView {
  /** The booking's location (a package's link opens its widget). */
  location?: { uuid: string } | null;
  /** The customer's packages (absent from an older API). */
  packages?: ManagedPackage[];
  /** The salon's face and contact (absent from an older API). */
  salon?: SalonView | null;
  booking: ManagedBooking;
  /** The salon's zone (the location's): the clock the customer's messages write times on. */
  timezone: string;
  /** The booking's own staffers, by first name (the booking names them by uuid). */
  staffers: { uuid: string; first_name: string }[];
  /** A fresh link for the booking as it now is. */
  manage: ManageLink;
}

/** A link for the booking, good until a day after its current end. */
export interface ManageLink {
  token: string;
  url: string;
  expires_at: string;
}

/** `GET /manage/{token}/time-slots`: the starts the booking may move to, per date. */
export interface MoveSlots {
  timezone: string;
  dates: {
    date: string;
    slots: { start: string; end: string; reserved_on: string }[];
  }[];
}

/** The parts of `GET /manage/{token}` the manage page reads: the public API's Booking. */
export interface ManagedBooking {
  uuid: string;
  start_time: string;
  end_time: string;
  /** The location's zone: the page shows every time on the salon's clock. */
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
  /**
   * The booking's staff by name, when the API adds them (the Booking shape names staff by
   * uuid only, and a link's holder may not list the workspace's staff).
   */
  staffers?: { uuid: string; first_name: string; last_name: string | null }[];
}

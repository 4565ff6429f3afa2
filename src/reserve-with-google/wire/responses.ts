import type { BookingStatus, FailureCause, PrepaymentStatus } from "./enums";

/**
 * The booking server's answers, as proto3 JSON under proto names: int64 as decimal strings,
 * enums by name, unset optional fields left out (`unset`). Built by the views; the tests
 * check every answer against the interface's own description of these messages.
 */
export interface ResourceIdsOut {
  staff_id?: string;
  room_id?: string;
  party_size?: number;
}

export interface SlotOut {
  merchant_id?: string;
  service_id?: string;
  start_sec?: string;
  duration_sec?: string;
  availability_tag?: string;
  resources?: ResourceIdsOut;
  confirmation_mode?: string;
}

export interface SlotTimeOut {
  service_id?: string;
  start_sec?: string;
  duration_sec?: string;
  availability_tag?: string;
  resource_ids?: ResourceIdsOut;
  confirmation_mode?: string;
}

export interface UserInformationOut {
  user_id?: string;
  given_name?: string;
  family_name?: string;
  address?: Record<string, string>;
  telephone?: string;
  email?: string;
  language_code?: string;
}

export interface BookingOut {
  booking_id: string;
  slot?: SlotOut;
  user_information?: UserInformationOut;
  status: BookingStatus;
  payment_information?: { prepayment_status: PrepaymentStatus };
}

export interface BookingFailureOut {
  cause: FailureCause;
  description?: string;
}

export interface CreateBookingResponse {
  booking?: BookingOut;
  booking_failure?: BookingFailureOut;
}

export interface UpdateBookingResponse {
  booking?: BookingOut;
  booking_failure?: BookingFailureOut;
}

export interface CheckAvailabilityResponse {
  slot: SlotOut;
  count_available: number;
}

export interface BatchAvailabilityLookupResponse {
  slot_time_availability: { slot_time: SlotTimeOut; available: boolean }[];
}

export interface GetBookingStatusResponse {
  booking_id: string;
  booking_status: BookingStatus;
  prepayment_status: PrepaymentStatus;
}

export interface ListBookingsResponse {
  bookings: BookingOut[];
}

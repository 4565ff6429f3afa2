import { z } from "@hono/zod-openapi";
import { int32, int64, protoEnum } from "./json";
import {
  BOOKING_STATUS,
  CONFIRMATION_MODE,
  PAYMENT_PROCESSED_BY,
  PREPAYMENT_STATUS,
} from "./enums";

/**
 * The booking server's requests, as proto3 JSON under proto names (`protoNames` first).
 * A field left out is its default, as in proto3; what a method needs is checked by the
 * method, not here. Fields we do not read are dropped; the identifiers are bounded so a
 * caller cannot make us store or search with megabytes.
 */
const id = z.string().max(256);
const text = (max: number) => z.string().max(max);

export const ResourceIds = z.object({
  staff_id: id.default(""),
  room_id: id.default(""),
  party_size: int32.default(0),
});

export const Slot = z.object({
  merchant_id: id.default(""),
  service_id: id.default(""),
  start_sec: int64.default(0),
  duration_sec: int64.default(0),
  availability_tag: text(256).default(""),
  resources: ResourceIds.optional(),
  confirmation_mode: protoEnum(CONFIRMATION_MODE).default("CONFIRMATION_MODE_UNSPECIFIED"),
});
export type Slot = z.output<typeof Slot>;

export const SlotTime = z.object({
  service_id: id.default(""),
  start_sec: int64.default(0),
  duration_sec: int64.default(0),
  availability_tag: text(256).default(""),
  resource_ids: ResourceIds.optional(),
  confirmation_mode: protoEnum(CONFIRMATION_MODE).default("CONFIRMATION_MODE_UNSPECIFIED"),
});
export type SlotTime = z.output<typeof SlotTime>;

export const PostalAddress = z.object({
  country: text(2).default(""),
  locality: text(200).default(""),
  region: text(200).default(""),
  postal_code: text(40).default(""),
  street_address: text(400).default(""),
});

export const UserInformation = z.object({
  user_id: id.default(""),
  given_name: text(200).default(""),
  family_name: text(200).default(""),
  address: PostalAddress.optional(),
  telephone: text(64).default(""),
  email: text(320).default(""),
  language_code: text(35).default(""),
});
export type UserInformation = z.output<typeof UserInformation>;

export const PaymentInformation = z.object({
  prepayment_status: protoEnum(PREPAYMENT_STATUS).default("PREPAYMENT_STATUS_UNSPECIFIED"),
  payment_processed_by: protoEnum(PAYMENT_PROCESSED_BY).default("PAYMENT_PROCESSED_BY_UNSPECIFIED"),
});

export const Booking = z.object({
  booking_id: id.default(""),
  slot: Slot.optional(),
  user_information: UserInformation.optional(),
  status: protoEnum(BOOKING_STATUS).default("BOOKING_STATUS_UNSPECIFIED"),
  payment_information: PaymentInformation.optional(),
});

/** How many slot times one BatchAvailabilityLookup may ask about (more is a 400). */
export const MAX_SLOT_TIMES = 500;

export const BatchAvailabilityLookupRequest = z.object({
  merchant_id: id.default(""),
  slot_time: z.array(SlotTime).max(MAX_SLOT_TIMES).default([]),
});

export const CheckAvailabilityRequest = z.object({ slot: Slot.optional() });

export const CreateBookingRequest = z.object({
  slot: Slot.optional(),
  lease_ref: z.object({ lease_id: id.default("") }).optional(),
  user_information: UserInformation.optional(),
  payment_information: PaymentInformation.optional(),
  idempotency_token: id.default(""),
  additional_request: text(2000).default(""),
  offer_id: id.default(""),
  deal_id: id.default(""),
});
export type CreateBookingRequest = z.output<typeof CreateBookingRequest>;

export const UpdateBookingRequest = z.object({ booking: Booking.optional() });
export type UpdateBookingRequest = z.output<typeof UpdateBookingRequest>;

export const GetBookingStatusRequest = z.object({ booking_id: id.default("") });

export const ListBookingsRequest = z.object({ user_id: id.default("") });

import { describe, expect, it } from "vitest";
import { expectProtoJson, protoDecode, protoJsonErrors } from "../helpers/proto-json";

// The checker the booking server's answers and the feeds are held to (under Node here; the
// workers pool runs it too: test/integration/rwg/proto-json.test.ts).
const booking = {
  booking_id: "b1",
  slot: {
    merchant_id: "m",
    service_id: "s",
    start_sec: "1900000000",
    duration_sec: "2700",
    resources: { staff_id: "x", party_size: 1 },
    confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
  },
  user_information: { user_id: "u", given_name: "Ada", address: { country: "DE" } },
  status: "CONFIRMED",
  payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
};

describe("expectProtoJson", () => {
  it("accepts proto3 JSON under proto names, and protobufjs reads it back the same", () => {
    expectProtoJson("CreateBookingResponse", { booking });
    expectProtoJson("ListBookingsResponse", { bookings: [] });
    expect(protoDecode("CreateBookingResponse", { booking })).toEqual({ booking });
  });

  it("names the path of each departure", () => {
    const bad = {
      booking: {
        ...booking,
        status: "CANCELLED",
        slot: { ...booking.slot, start_sec: 1900000000, resources: { party_size: "2" } },
        user_information: { userId: "u" },
        payment_information: { payment_option_id: "a", user_payment_option_id: "b" },
      },
      booking_failure: { cause: "SLOT_UNAVAILABLE", description: null },
    };
    expect(protoJsonErrors("CreateBookingResponse", bad)).toEqual([
      "CreateBookingResponse.booking.slot.start_sec: 1900000000 is not an int64 (a decimal string)",
      'CreateBookingResponse.booking.slot.resources.party_size: "2" is not an int32 (an integer number)',
      "CreateBookingResponse.booking.user_information.userId: not a field of ext.maps.booking.partner.v3.UserInformation",
      'CreateBookingResponse.booking.status: "CANCELLED" is not a value of enum ext.maps.booking.partner.v3.BookingStatus',
      "CreateBookingResponse.booking.payment_information: oneof payment_id has payment_option_id and user_payment_option_id set",
      "CreateBookingResponse.booking_failure.description: null (an unset field is left out)",
    ]);
    expect(protoJsonErrors("ListBookingsResponse", { bookings: booking })).toEqual([
      "ListBookingsResponse.bookings: " +
        JSON.stringify(booking) +
        " is not an array (repeated field)",
    ]);
    expect(
      protoJsonErrors("GetBookingStatusResponse", { booking_id: "b", status: "CONFIRMED" }),
    ).toEqual([
      "GetBookingStatusResponse.status: not a field of ext.maps.booking.partner.v3.GetBookingStatusResponse",
    ]);
    expect(protoJsonErrors("CheckAvailabilityResponse", { count_available: 1.5 })).toEqual([
      "CheckAvailabilityResponse.count_available: 1.5 is not an int32 (an integer number)",
    ]);
  });

  it("reads what a reader accepts when asked: lowerCamel keys, enum numbers, int64 numbers", () => {
    const camel = { bookingId: "b", bookingStatus: 1, prepaymentStatus: "PREPAYMENT_PROVIDED" };
    expect(protoJsonErrors("GetBookingStatusResponse", camel)).toHaveLength(3);
    expectProtoJson("GetBookingStatusResponse", camel, {
      names: "either",
      enums: "name-or-number",
    });
    expect(
      protoJsonErrors(
        "GetBookingStatusResponse",
        { booking_id: "b", bookingId: "c" },
        { names: "either" },
      ),
    ).toEqual(["GetBookingStatusResponse.bookingId: the same field as booking_id"]);
    const slot = { service_id: "s", start_sec: 1900000000 };
    expectProtoJson("SlotTime", slot, { int64: "string-or-number" });
    expect(protoJsonErrors("SlotTime", { start_sec: 1.5 }, { int64: "string-or-number" })).toEqual([
      "SlotTime.start_sec: 1.5 is not an int64",
    ]);
  });

  it("checks the feeds by their full names", () => {
    const feed = {
      metadata: {
        processing_instruction: "PROCESS_AS_COMPLETE",
        shard_number: 0,
        total_shards: 1,
        nonce: "11203880",
        generation_timestamp: 1524606581,
      },
      merchant: [
        {
          merchant_id: "m",
          name: "Salon",
          category: "beauty",
          geo: {
            latitude: 52.5,
            longitude: 13.4,
            address: { country: "DE" },
            unstructured_address: "x",
          },
        },
      ],
    };
    expect(
      protoJsonErrors("ext.maps.booking.feeds.MerchantFeed", feed, { int64: "string-or-number" }),
    ).toEqual([
      "ext.maps.booking.feeds.MerchantFeed.merchant[0].geo: oneof addresses has address and unstructured_address set",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { expectProtoJson, protoDecode, protoJsonErrors } from "../../helpers/proto-json";

// The checker runs inside workerd too (the booking server's answers are checked there).
describe("proto3 JSON checker in the workers pool", () => {
  it("reads the proto and checks a response", () => {
    const answer = {
      booking_id: "b1",
      booking_status: "CONFIRMED",
      prepayment_status: "PREPAYMENT_NOT_PROVIDED",
    };
    expectProtoJson("GetBookingStatusResponse", answer);
    expect(protoJsonErrors("GetBookingStatusResponse", { ...answer, status: "CONFIRMED" })).toEqual(
      [
        "GetBookingStatusResponse.status: not a field of ext.maps.booking.partner.v3.GetBookingStatusResponse",
      ],
    );
    expect(protoDecode("GetBookingStatusResponse", answer)).toEqual(answer);
  });
});

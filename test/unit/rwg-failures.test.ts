import { describe, expect, it } from "vitest";
import { failureOf } from "../../src/reserve-with-google/rules/failures";

describe("Reserve with Google: our refusals in Google's words", () => {
  it("maps the codes of a taken time, a payment and a booking cap to business failures", () => {
    expect(failureOf({ code: "slot_unavailable", subjects: [] })).toEqual({
      kind: "failure",
      cause: "SLOT_UNAVAILABLE",
    });
    expect(failureOf({ code: "session_full", subjects: [] })).toEqual({
      kind: "failure",
      cause: "SLOT_UNAVAILABLE",
    });
    expect(failureOf({ code: "payment_required", subjects: [] })).toEqual({
      kind: "failure",
      cause: "PAYMENT_ERROR",
    });
    expect(failureOf({ code: "too_many_bookings", subjects: [] })).toEqual({
      kind: "failure",
      cause: "USER_OVER_BOOKING_LIMIT",
    });
  });

  it("keeps rate limits, a lost change, a moving workspace and our bugs HTTP errors", () => {
    for (const code of ["rate_limited", "booking_changed", "workspace_moving", "internal_error"]) {
      expect(failureOf({ code, subjects: [] })).toEqual({ kind: "http" });
    }
  });

  it("answers a 422 about the slot SLOT_UNAVAILABLE, and one about the user 400", () => {
    for (const subject of ["start", "staffer", "service"]) {
      expect(failureOf({ code: "validation_failed", subjects: [subject] })).toEqual({
        kind: "failure",
        cause: "SLOT_UNAVAILABLE",
      });
    }
    for (const subject of ["phone", "form", "location", "something new"]) {
      expect(failureOf({ code: "validation_failed", subjects: [subject] })).toEqual({
        kind: "invalid_argument",
      });
    }
  });

  it("lets a 400 outrank a failure in one 422, and reads a 422 without subjects as a 400", () => {
    expect(failureOf({ code: "validation_failed", subjects: ["start", "phone"] })).toEqual({
      kind: "invalid_argument",
    });
    expect(failureOf({ code: "validation_failed", subjects: [] })).toEqual({
      kind: "invalid_argument",
    });
  });
});

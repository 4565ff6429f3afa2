import { describe, expect, it } from "vitest";
import {
  bookableThroughGoogle,
  type GoogleService,
} from "../../../src/reserve-with-google/rules/bookable";
import { hourNonce, microsOf } from "../../../src/reserve-with-google/rules/feed-values";

const service = (over: Partial<GoogleService> = {}): GoogleService => ({
  live: true,
  liveInWidget: true,
  paymentPolicy: null,
  price: 3500,
  priceDiscount: null,
  ...over,
});

describe("bookableThroughGoogle", () => {
  it("offers a live, widget-shown service with nothing to pay online", () => {
    expect(bookableThroughGoogle(service())).toBe(true);
    expect(bookableThroughGoogle(service({ paymentPolicy: { mode: "none" } }))).toBe(true);
  });

  it("leaves out what a customer could not book straight away", () => {
    expect(bookableThroughGoogle(service({ live: false }))).toBe(false);
    expect(bookableThroughGoogle(service({ liveInWidget: false }))).toBe(false);
    for (const mode of ["card_on_file", "deposit", "prepay"] as const) {
      expect(bookableThroughGoogle(service({ paymentPolicy: { mode } })), mode).toBe(false);
    }
    // A free service with a prepay policy still asks for a payment step.
    expect(bookableThroughGoogle(service({ price: 0, paymentPolicy: { mode: "prepay" } }))).toBe(
      false,
    );
  });
});

describe("feed values", () => {
  it("writes amounts in micros by the currency's minor digits", () => {
    expect(microsOf(3500, "EUR")).toBe(35_000_000);
    expect(microsOf(4500, "JPY")).toBe(4_500_000_000);
    expect(microsOf(1234, "KWD")).toBe(1_234_000); // three minor digits
    expect(microsOf(0, "USD")).toBe(0);
  });

  it("gives every moment of one UTC hour the same nonce, and the next hour the next", () => {
    const hour = Date.parse("2030-03-04T08:00:00Z");
    expect(hourNonce(hour)).toBe(hourNonce(hour + 3_599_999));
    expect(Number(hourNonce(hour + 3_600_000))).toBe(Number(hourNonce(hour)) + 1);
    expect(hourNonce(hour)).toMatch(/^[1-9]\d*$/);
  });
});

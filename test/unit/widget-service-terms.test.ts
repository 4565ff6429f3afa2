import { describe, expect, it } from "vitest";
import { formatDuration, formatPrice, serviceTerms } from "../../widget/service-terms";

const service = (over: Partial<Parameters<typeof serviceTerms>[0]> = {}) => ({
  duration: { value: 45 },
  price: 3500,
  discount: 3500,
  currency: "EUR",
  is_duration_hidden: false,
  is_price_hidden: false,
  starting_at: false,
  ...over,
});

describe("widget service terms", () => {
  it("shows the duration's number and unit, hours and minutes, in the browser's language", () => {
    expect(formatDuration(45, "en-US")).toBe("45 min");
    expect(formatDuration(60, "en-US")).toBe("1 hr");
    expect(formatDuration(90, "en-US")).toBe("1 hr 30 min");
    expect(formatDuration(1425, "en-US")).toBe("23 hr 45 min");
    expect(formatDuration(45, "de-DE")).toBe("45 Min.");
    expect(formatDuration(90, "de-DE")).toBe("1 Std., 30 Min.");
  });

  it("formats minor units in the service's currency, with that currency's decimals", () => {
    expect(formatPrice(3500, "EUR", "en-US")).toBe("€35.00");
    expect(formatPrice(3500, "EUR", "de-DE")).toBe("35,00\u00a0€");
    expect(formatPrice(3500, "JPY", "en-US")).toBe("¥3,500");
    expect(formatPrice(3500, "KWD", "en-US")).toBe("KWD\u00a03.500");
    expect(formatPrice(0, "EUR", "en-US")).toBe("€0.00");
  });

  it("joins what the service shows with a separator, and leaves out what it hides", () => {
    expect(serviceTerms(service(), "en-US")).toBe("45 min · €35.00");
    expect(serviceTerms(service({ is_duration_hidden: true }), "en-US")).toBe("€35.00");
    expect(serviceTerms(service({ is_price_hidden: true }), "en-US")).toBe("45 min");
    expect(
      serviceTerms(service({ is_duration_hidden: true, is_price_hidden: true }), "en-US"),
    ).toBe("");
  });

  it("shows the price a client pays, and a starting price as one", () => {
    expect(serviceTerms(service({ discount: 2800 }), "en-US")).toBe("45 min · €28.00");
    expect(serviceTerms(service({ starting_at: true }), "en-US")).toBe("45 min · from €35.00");
    expect(serviceTerms(service({ starting_at: true, is_price_hidden: true }), "en-US")).toBe(
      "45 min",
    );
  });
});

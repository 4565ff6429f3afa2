import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressLine, addressOf, addressColumns } from "../../src/platform/rules/address";
import { isE164Phone } from "../../src/platform/rules/phone";
import {
  contrastOnWhite,
  httpsUrl,
  logoHref,
  MAX_LOGO_URL,
  readableOnWhite,
} from "../../src/tenancy/rules/brand";

describe("accent colour contrast on white (WCAG 2)", () => {
  it.each([
    ["#767676", 4.54, true],
    ["#777777", 4.48, false],
    ["#000000", 21, true],
    ["#ffffff", 1, false],
    ["#0000ff", 8.59, true],
    ["#FF0000", 4.0, false],
  ])("%s on white is %f:1 (readable: %s)", (hex, ratio, readable) => {
    expect(contrastOnWhite(hex)).toBeCloseTo(ratio, 2);
    expect(readableOnWhite(hex)).toBe(readable);
  });

  it("refuses what is not #rrggbb", () => {
    for (const bad of ["#000", "000000", "#00000g", "black", "#0000000"]) {
      expect(readableOnWhite(bad)).toBe(false);
    }
  });

  it("is symmetric in case and between 1 and 21 for every colour", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const hex = `#${n.toString(16).padStart(6, "0")}`;
        const ratio = contrastOnWhite(hex);
        expect(ratio).toBeGreaterThanOrEqual(1);
        expect(ratio).toBeLessThanOrEqual(21);
        expect(contrastOnWhite(hex.toUpperCase())).toBe(ratio);
      }),
    );
  });
});

describe("logo URL", () => {
  it("takes https: URLs only, up to the cap", () => {
    expect(httpsUrl("https://example.com/logo.svg")).toBe("https://example.com/logo.svg");
    expect(httpsUrl("http://example.com/logo.svg")).toBeNull();
    expect(httpsUrl("javascript:alert(1)")).toBeNull();
    expect(httpsUrl("not a url")).toBeNull();
    const base = "https://example.com/";
    expect(httpsUrl(base + "a".repeat(MAX_LOGO_URL - base.length))).not.toBeNull();
    expect(httpsUrl(base + "a".repeat(MAX_LOGO_URL - base.length + 1))).toBeNull();
  });

  it("stores the parsed URL's own form, its length checked on that form", () => {
    expect(httpsUrl("  HTTPS://CDN.Example:443/a b/../logo.svg  ")).toBe(
      "https://cdn.example/logo.svg",
    );
    expect(httpsUrl("https://cdn.example/ä.svg")).toBe("https://cdn.example/%C3%A4.svg");
    // Short enough as typed, too long once "ä" is escaped (2 characters become 6).
    const base = "https://example.com/";
    const typed = base + "ä".repeat((MAX_LOGO_URL - base.length) / 2);
    expect(typed.length).toBeLessThanOrEqual(MAX_LOGO_URL);
    expect(httpsUrl(typed)).toBeNull();
  });

  it("refuses a URL with a username or password", () => {
    expect(logoHref("https://user@cdn.example/logo.svg")).toEqual({ refused: "credentials" });
    expect(logoHref("https://:secret@cdn.example/logo.svg")).toEqual({ refused: "credentials" });
    expect(logoHref("https://user:secret@cdn.example/logo.svg")).toEqual({
      refused: "credentials",
    });
    expect(logoHref("http://user@cdn.example/")).toEqual({ refused: "not_https" });
  });
});

describe("salon phone (E.164 only)", () => {
  it("takes real numbers written in E.164", () => {
    expect(isE164Phone("+493012345678")).toBe(true);
    expect(isE164Phone("+442079460958")).toBe(true);
  });
  it.each(["030 12345678", "+49 30 12345678", "+4930", "+49000000000", "", "+0123456789"])(
    "refuses %j",
    (input) => expect(isE164Phone(input)).toBe(false),
  );
});

describe("address line", () => {
  const address = {
    line1: "Hauptstraße 1",
    line2: "2. OG",
    city: "Berlin",
    postal_code: "10115",
    country: "DE",
  };

  it("writes line1, line2, postal code and city, and the country's name in the locale", () => {
    expect(addressLine(address, "en")).toBe("Hauptstraße 1, 2. OG, 10115 Berlin, Germany");
    expect(addressLine(address, "de")).toBe("Hauptstraße 1, 2. OG, 10115 Berlin, Deutschland");
  });

  it("leaves out a missing line2; no address is empty", () => {
    expect(addressLine({ ...address, line2: null }, "en")).toBe(
      "Hauptstraße 1, 10115 Berlin, Germany",
    );
    expect(addressLine(null, "en")).toBe("");
  });

  it("names the country in English for a tag Intl refuses", () => {
    expect(addressLine(address, "xx-invalid-zz")).toBe(
      "Hauptstraße 1, 2. OG, 10115 Berlin, Germany",
    );
  });

  it("round-trips through the columns; an empty line2 is none; null clears every column", () => {
    expect(addressOf(addressColumns(address))).toEqual(address);
    expect(addressOf(addressColumns({ ...address, line2: "" }))?.line2).toBeNull();
    expect(addressOf(addressColumns({ ...address, line2: undefined }))?.line2).toBeNull();
    const cleared = addressColumns(null);
    expect(Object.values(cleared).every((v) => v === null)).toBe(true);
    expect(addressOf(cleared)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normalisePhone as apiNormalisePhone } from "../../src/platform/rules/phone";
import { browserCountry, normalisePhone } from "../../widget/phone";

describe("widget phone check", () => {
  it("reads a national number in the country of the browser's language", () => {
    expect(browserCountry(["de-DE", "en"])).toBe("DE");
    expect(normalisePhone("0151 11223344", browserCountry(["de-DE"]))).toBe("+4915111223344");
    expect(normalisePhone("(212) 555-0123", browserCountry(["en-US"]))).toBe("+12125550123");
  });

  it("takes an international number whatever the language", () => {
    expect(normalisePhone("+43 664 1234567", "DE")).toBe("+436641234567");
    expect(normalisePhone("+49 30 12345678", undefined)).toBe("+493012345678");
  });

  it("refuses what cannot be a phone number", () => {
    expect(normalisePhone("12", "DE")).toBeNull();
    expect(normalisePhone("not a number", "DE")).toBeNull();
    // Without + and without a country from the language there is no way to read it.
    expect(browserCountry(["en"])).toBeUndefined();
    expect(normalisePhone("0151 11223344", undefined)).toBeNull();
  });

  it("accepts exactly what the API accepts, refusing numbers of a valid length outside any real range", () => {
    // Valid lengths, but no German range starts 110, 120 or 190: the API refuses them, so must the widget.
    for (const n of ["+4912011223344", "+4911011223344", "+4919011223344"]) {
      expect(apiNormalisePhone(n, "DE"), n).toBeNull();
      expect(normalisePhone(n, "DE"), n).toBeNull();
    }
    fc.assert(
      fc.property(
        fc.constantFrom("+49", "+43", "+1", "+44", "0"),
        fc.stringMatching(/^[0-9]{4,12}$/),
        (prefix, digits) => {
          const typed = `${prefix}${digits}`;
          expect(normalisePhone(typed, "DE")).toBe(apiNormalisePhone(typed, "DE"));
        },
      ),
    );
  });
});

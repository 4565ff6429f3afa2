import { describe, expect, it } from "vitest";
import { normalisePhone } from "../../src/platform/rules/phone";

describe("normalisePhone", () => {
  it.each([
    ["030 12345678", "DE"],
    ["+49 30 12345678", "DE"],
    ["0049 30 12345678", "DE"],
    ["(030) 123-456-78", "DE"],
    ["+4930 12345678", "FR"],
  ])("reads %s (workspace %s) as the same Berlin number", (input, country) => {
    expect(normalisePhone(input, country)).toBe("+493012345678");
  });

  it("gives national and international forms of a mobile number the same E.164", () => {
    const national = normalisePhone("0151 23456789", "DE");
    expect(national).toBe("+4915123456789");
    expect(normalisePhone("+49 151 23456789", "DE")).toBe(national);
  });

  it("keeps the country of a number written with another country's prefix", () => {
    expect(normalisePhone("+44 20 7946 0958", "DE")).toBe("+442079460958");
    expect(normalisePhone("+1 (212) 555-0123", "DE")).toBe("+12125550123");
    expect(normalisePhone("020 7946 0958", "GB")).toBe("+442079460958");
  });

  it("accepts a lower-case country code", () => {
    expect(normalisePhone("030 12345678", "de")).toBe("+493012345678");
  });

  it.each([
    ["", "DE"],
    ["   ", "DE"],
    ["not a phone", "DE"],
    ["12", "DE"],
    ["+49 1", "DE"],
    ["+999 123456789", "DE"],
    ["0000000000", "DE"],
    ["030 12345678 ext abc ".repeat(5), "DE"],
    ["030 12345678", "XX"],
  ])("rejects %j (workspace %s)", (input, country) => {
    expect(normalisePhone(input, country)).toBeNull();
  });

  it("still reads an international number when the workspace country is unknown", () => {
    expect(normalisePhone("+49 30 12345678", "XX")).toBe("+493012345678");
  });
});

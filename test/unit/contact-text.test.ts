import { describe, expect, it } from "vitest";
import { findContactText, stripContactText } from "../../src/catalogue/rules/contact-text";

describe("contact text in service names", () => {
  it.each([
    "Haircut at www.cheapcuts.example",
    "Book via https://example.org/booking",
    "Colour – mail me: anna@salon.de",
    "Visit salon.com for more",
    "Nails (nails-by-mia.co.uk)",
  ])("finds an address in %s", (name) => {
    expect(findContactText(name)).not.toBeNull();
  });

  it.each([
    "Cut & Blow-dry 2.5h",
    "Mr. Smith's special",
    "Dr.Hair signature cut",
    "Balayage 3.0",
    "Kids cut (u. 12)",
  ])("leaves %s alone", (name) => {
    expect(findContactText(name)).toBeNull();
  });

  it("strips what it finds", () => {
    expect(stripContactText("Haircut at www.cheapcuts.example now")).toBe("Haircut at now");
  });
});

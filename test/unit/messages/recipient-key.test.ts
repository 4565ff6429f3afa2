import { describe, expect, it } from "vitest";
import { recipientKey } from "../../../src/messages/rules";

describe("the recipient the per-recipient bound counts", () => {
  it("one inbox however it is spelt", () => {
    const one = recipientKey("email", "ada@example.org");
    for (const spelt of ["Ada@Example.org", " ada+1@example.org", "ADA+promo@EXAMPLE.ORG"])
      expect(recipientKey("email", spelt)).toBe(one);
    expect(recipientKey("email", "a.d.a@gmail.com")).toBe(
      recipientKey("email", "ada+x@googlemail.com"),
    );
    // Dots count where the provider reads them.
    expect(recipientKey("email", "a.da@example.org")).not.toBe(one);
  });

  it("a phone by its number, apart from an inbox", () => {
    expect(recipientKey("sms", "+4915112345678")).toBe("sms:+4915112345678");
    expect(recipientKey("email", "+4915112345678@x")).not.toBe(
      recipientKey("sms", "+4915112345678"),
    );
  });
});

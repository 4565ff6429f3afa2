import { describe, expect, it } from "vitest";
import { deliveryConfigOf } from "../../src/messages/delivery/providers/config";
import { providerFor } from "../../src/messages/delivery/providers";
import { mailbox } from "../../src/messages/delivery/providers/resend";

describe("choosing providers by configuration", () => {
  it("logs both channels when no secret is set (the local default)", () => {
    const config = deliveryConfigOf({ RESEND_BASE_URL: "https://api.resend.com" });
    expect(providerFor("email", config).name).toBe("log");
    expect(providerFor("sms", config).name).toBe("log");
  });

  it("takes Resend for e-mail with its key, Twilio for SMS with SID and token", () => {
    const config = deliveryConfigOf({
      RESEND_API_KEY: "re_x",
      TWILIO_ACCOUNT_SID: "AC1",
      TWILIO_AUTH_TOKEN: "t",
      TWILIO_FROM: "+15005550006",
    });
    expect(providerFor("email", config).name).toBe("resend");
    expect(providerFor("sms", config).name).toBe("twilio");
    expect(config.email?.baseUrl).toBe("https://api.resend.com");
    expect(config.sms?.baseUrl).toBe("https://api.twilio.com");
  });

  it("treats blank secrets as unset, and needs both of Twilio's", () => {
    const config = deliveryConfigOf({ RESEND_API_KEY: "  ", TWILIO_ACCOUNT_SID: "AC1" });
    expect(config.email).toBeNull();
    expect(config.sms).toBeNull();
  });

  it("refuses a malformed base URL or backoff loudly", () => {
    expect(() => deliveryConfigOf({ RESEND_BASE_URL: "not a url" })).toThrow(/RESEND_BASE_URL/);
    expect(() => deliveryConfigOf({ MESSAGE_RETRY_BASE_SECONDS: "-1" })).toThrow(
      /MESSAGE_RETRY_BASE_SECONDS/,
    );
  });
});

describe("an e-mail's From", () => {
  it("is the bare address without a name", () => {
    expect(mailbox(null, "a@b.example")).toBe("a@b.example");
    expect(mailbox("  ", "a@b.example")).toBe("a@b.example");
  });

  it("keeps plain names as they are, letters of any script included", () => {
    expect(mailbox("Salon Süd", "a@b.example")).toBe("Salon Süd <a@b.example>");
  });

  it("quotes names with punctuation and escapes quotes and backslashes", () => {
    expect(mailbox("Hair & Co.", "a@b.example")).toBe('"Hair & Co." <a@b.example>');
    expect(mailbox('Die "Schere" \\ Wien', "a@b.example")).toBe(
      '"Die \\"Schere\\" \\\\ Wien" <a@b.example>',
    );
  });

  it("drops line breaks so no header can be added", () => {
    expect(mailbox("Salon\r\nBcc: x@evil.example", "a@b.example")).toBe(
      '"Salon Bcc: x@evil.example" <a@b.example>',
    );
  });
});

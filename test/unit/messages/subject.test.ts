import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SETTINGS,
  MESSAGE_KINDS,
  type MessageContext,
  VARIABLES,
  writeMessage,
} from "../../../src/messages/rules";

/**
 * A rendered subject is one line whatever the variables hold (a customer's or
 * location's name, a service's, a staffer's) and whatever a workspace's
 * template writes: a subject is a mail header's value, where a line break
 * would start another header.
 */

/** Every character that breaks a line somewhere (RFC 5322 headers, Unicode, HTML renderers). */
const BREAKS = /[\r\n\v\f\u0085\u2028\u2029]/u;
/** Controls, which nothing should carry into a header. */
const CONTROLS = /\p{Cc}/u;

const hostile = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        "\r\n",
        "\n",
        "\r",
        "\t",
        "\u0085",
        "\u2028",
        "\u2029",
        "\v",
        "\f",
        "\u0000",
        "Bcc: x@evil.example",
        " ",
        "Anna",
        "\u202e",
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join("")),
);

const ctx = (name: string, location: string, subject?: string): MessageContext => ({
  settings: {
    ...DEFAULT_SETTINGS,
    templates: subject
      ? {
          "booking-confirmation": { en: { subject, body: "Hello {{customer_first_name}}" } },
        }
      : {},
  },
  workspaceLocale: "en",
  currency: "EUR",
  customer: {
    id: "c1",
    firstName: name,
    email: "mia@example.com",
    phone: "+4915112345678",
    locale: null,
    notifyEmail: true,
    notifySms: true,
  },
  location: { name: location, address: null, timezone: "Europe/Berlin" },
  total: 4500,
});

const booking = (service: string, staffer: string) => ({
  id: "b1",
  startAt: Date.parse("2026-03-28T09:00:00Z"),
  serviceNames: [service],
  stafferFirstNames: [staffer],
  icalUrl: "https://x.test/ical",
  manageUrl: "https://x.test/manage",
});

describe("a rendered subject", () => {
  it("never holds a line break or control character, and never starts or ends with a space", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MESSAGE_KINDS),
        hostile,
        hostile,
        hostile,
        hostile,
        (kind, name, location, service, staffer) => {
          const text = writeMessage(kind, "email", ctx(name, location), [
            booking(service, staffer),
          ]);
          const subject = text.subject ?? "";
          expect(subject).not.toMatch(BREAKS);
          expect(subject).not.toMatch(CONTROLS);
          expect(subject).toBe(subject.trim());
          expect(subject).not.toMatch(/\s{2}/u);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a workspace template's subject is one line too, whatever it and the values hold", () => {
    const names = Object.keys(VARIABLES).map((v) => `{{${v}}}`);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...names), hostile), { maxLength: 6 }),
        hostile,
        (parts, name) => {
          const template = parts.join("") || "x";
          const text = writeMessage("booking-confirmation", "email", ctx(name, "Salon", template), [
            booking("Cut", "Ben"),
          ]);
          expect(text.subject ?? "").not.toMatch(BREAKS);
          expect(text.subject ?? "").not.toMatch(CONTROLS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps the words of a name with a line break, on one line", () => {
    const text = writeMessage(
      "booking-confirmation",
      "email",
      ctx("Anna", "Main\r\nBcc: x@evil.example\u2028street"),
      [booking("Cut", "Ben")],
    );
    expect(text.subject).toBe("Your booking at Main Bcc: x@evil.example street is confirmed");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUILT_IN_LOCALES,
  DEFAULT_SETTINGS,
  feeReason,
  type MessageContext,
  paymentText,
  writeMessage,
} from "../../../src/messages/rules";

const booking = {
  id: "b1",
  startAt: Date.parse("2030-03-28T09:00:00Z"),
  serviceNames: ["Balayage"],
  stafferFirstNames: ["Anna"],
  icalUrl: "https://x.test/ical",
  manageUrl: "https://x.test/manage",
};

const ctx = (over: Partial<MessageContext> = {}): MessageContext => ({
  settings: { ...DEFAULT_SETTINGS, sms: { enabled: true } },
  workspaceLocale: "en",
  currency: "EUR",
  customer: {
    id: "c1",
    firstName: "Mia",
    email: "mia@example.com",
    phone: "+4915112345678",
    locale: null,
    notifyEmail: true,
    notifySms: true,
  },
  location: { name: "Salon", address: null, timezone: "Europe/Berlin" },
  total: 8000,
  ...over,
});

/** Intl separates amounts and units with no-break spaces: compared as plain spaces. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const FULL = { paid: 1200, lateCancel: { windowMinutes: 1440, fee: 1000 }, noShowFee: 2000 };

describe("paymentText", () => {
  it("names what was paid and both fees", () => {
    expect(paymentText(FULL, "EUR", "en")).toBe(
      "Paid online: €12.00. Cancelling less than 24 hours before costs €10.00; a no-show costs €20.00.",
    );
    expect(spaced(paymentText(FULL, "EUR", "de-AT"))).toBe(
      "Online bezahlt: € 12,00. Eine Absage weniger als 24 Stunden vorher kostet € 10,00; Nichterscheinen kostet € 20,00.",
    );
  });

  it("leaves out what the terms do not have", () => {
    expect(paymentText({ paid: 0, lateCancel: null, noShowFee: 500 }, "EUR", "en")).toBe(
      "A no-show costs €5.00.",
    );
    expect(
      spaced(
        paymentText(
          { paid: 3000, lateCancel: { windowMinutes: 90, fee: 700 }, noShowFee: null },
          "EUR",
          "fr",
        ),
      ),
    ).toBe("Payé en ligne : 30,00 €. Une annulation moins de 90 minutes avant coûte 7,00 €.");
    expect(
      spaced(
        paymentText(
          { paid: 0, lateCancel: { windowMinutes: 0, fee: 700 }, noShowFee: 100 },
          "EUR",
          "es",
        ),
      ),
    ).toBe("Una cancelación tardía cuesta 7,00 €. No presentarse cuesta 1,00 €.");
    expect(paymentText({ paid: 0, lateCancel: null, noShowFee: null }, "EUR", "en")).toBe("");
    expect(paymentText(undefined, "EUR", "en")).toBe("");
  });

  it("speaks English in a language without built-in texts", () => {
    expect(feeReason("no_show_fee", "it")).toBe("not coming to the booking");
    expect(feeReason("late_cancel_fee", "de")).toBe("eine kurzfristige Absage");
  });

  it("any terms give one line ending in a full stop, or nothing when there is nothing to say", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.option(
          fc.record({
            windowMinutes: fc.integer({ min: 0, max: 10_080 }),
            fee: fc.integer({ min: 1, max: 10 ** 9 }),
          }),
          { nil: null },
        ),
        fc.option(fc.integer({ min: 1, max: 10 ** 9 }), { nil: null }),
        fc.constantFrom(...BUILT_IN_LOCALES),
        (paid, lateCancel, noShowFee, locale) => {
          const text = paymentText({ paid, lateCancel, noShowFee }, "EUR", locale);
          expect(text).not.toMatch(/\n/);
          const parts = [paid > 0, lateCancel !== null, noShowFee !== null].filter(Boolean);
          if (parts.length === 0) expect(text).toBe("");
          else expect(text.endsWith(".")).toBe(true);
        },
      ),
    );
  });
});

describe("messages about online money", () => {
  it("the confirmation carries the payment paragraph only when there is one", () => {
    const paid = writeMessage("booking-confirmation", "email", ctx({ payment: FULL }), [booking]);
    expect(paid.body).toContain(
      "Total: €80.00\nPaid online: €12.00. Cancelling less than 24 hours before costs €10.00; a no-show costs €20.00.\n\n",
    );
    const plain = writeMessage("booking-confirmation", "email", ctx(), [booking]);
    expect(plain.body).toContain("Total: €80.00\n\nAdd it to your calendar");
    expect(plain.body).not.toMatch(/\n{3}/);
  });

  it("payment-fee-charged names the fee and why, in every built-in language", () => {
    for (const locale of BUILT_IN_LOCALES) {
      const c = ctx({
        customer: { ...ctx().customer, locale },
        fee: { kind: "late_cancel_fee", amount: 1500 },
      });
      for (const channel of ["email", "sms"] as const) {
        const text = writeMessage("payment-fee-charged", channel, c, [booking]);
        expect(text.locale).toBe(locale);
        expect(text.body).toContain(feeReason("late_cancel_fee", locale));
        expect(text.body).toMatch(/15[.,]00/);
      }
    }
    const en = writeMessage(
      "payment-fee-charged",
      "email",
      ctx({ fee: { kind: "no_show_fee", amount: 4000 } }),
      [booking],
    );
    expect(en.subject).toBe("A fee for your booking at Salon");
    expect(en.body).toContain("a fee of €40.00 was charged for not coming to the booking:");
  });
});

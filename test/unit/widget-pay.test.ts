import { describe, expect, it } from "vitest";
import { ApiFailure, type Client } from "../../widget/api";
import { translator } from "../../widget/i18n/messages";
import { returnMarker, returnUrls } from "../../widget/pay/checkout";
import { comeBack } from "../../widget/pay/comeback";
import { heldChoice } from "../../widget/pay/restore";
import { forget, keep, resume } from "../../widget/pay/resume";
import { paidWords, payAction, policySentences, windowWords } from "../../widget/pay/terms";
import type { PaymentTerms, Reservation } from "../../widget/types";

const en = translator("en");
const de = translator("de");

const deposit: PaymentTerms = {
  mode: "deposit",
  amount_due_now: 1200,
  currency: "EUR",
  late_cancel: { window_minutes: 1440, fee: 1500 },
  no_show_fee: 4000,
};

describe("widget pay terms", () => {
  it("names the action by mode, the amount in the page's language and currency", () => {
    expect(payAction(deposit, "en-US", en)).toBe("Pay deposit €12.00");
    expect(payAction({ ...deposit, mode: "prepay", amount_due_now: 8000 }, "en-US", en)).toBe(
      "Pay €80.00",
    );
    expect(payAction({ ...deposit, mode: "card_on_file", amount_due_now: 0 }, "en", en)).toBe(
      "Save a card",
    );
    expect(payAction(deposit, "de-DE", de)).toBe("Anzahlung 12,00\u00a0€ zahlen");
    expect(payAction({ ...deposit, currency: "JPY", amount_due_now: 1200 }, "en", en)).toBe(
      "Pay deposit ¥1,200",
    );
  });

  it("says the late-cancel window and both fees in words", () => {
    expect(policySentences(deposit, "en-US", en)).toEqual([
      "Free cancellation until 24 hours before; later it costs €15.00.",
      "Not showing up costs €40.00.",
    ]);
    expect(policySentences(deposit, "de-DE", de)).toEqual([
      "Kostenlose Stornierung bis 24 Stunden vorher; danach kostet sie 15,00\u00a0€.",
      "Nicht zu erscheinen kostet 40,00\u00a0€.",
    ]);
  });

  it("leaves out what the terms do not have; a zero window charges no cancel", () => {
    expect(policySentences({ ...deposit, late_cancel: null, no_show_fee: null }, "en", en)).toEqual(
      [],
    );
    expect(
      policySentences({ ...deposit, late_cancel: { window_minutes: 0, fee: 500 } }, "en", en)[0],
    ).toBe("Free cancellation until the appointment starts.");
  });

  it.each([
    [30, "30 minutes"],
    [60, "1 hour"],
    [90, "1 hour, 30 minutes"],
    [1440, "24 hours"],
    [2880, "2 days"],
    [2940, "49 hours"],
    [10_080, "7 days"],
  ])("a window of %i minutes reads %s", (minutes, words) => {
    expect(windowWords(minutes, "en")).toBe(words);
  });

  it("the confirmation says what was paid, or that the card is kept", () => {
    expect(paidWords(deposit, "en-US", en)).toBe("Paid €12.00");
    expect(paidWords({ ...deposit, mode: "card_on_file", amount_due_now: 0 }, "en", en)).toBe(
      en("done.card_saved"),
    );
  });
});

const UUID = "0b6f3c1e-5d0a-4c4e-9a51-2f1d7e0c9b11";

describe("widget checkout return addresses", () => {
  it("marks the widget's own address, replacing an earlier marker", () => {
    const page = "https://api.example/widget?workspace=w&location=l&key=pk_1";
    expect(returnUrls(`${page}#back=${UUID}`, UUID)).toEqual({
      success_url: `${page}#paid=${UUID}`,
      cancel_url: `${page}#back=${UUID}`,
    });
  });

  it("reads only its own markers", () => {
    expect(returnMarker(`#paid=${UUID}`)).toEqual({ kind: "paid", reservation: UUID });
    expect(returnMarker(`#back=${UUID}`)).toEqual({ kind: "back", reservation: UUID });
    expect(returnMarker("")).toBeNull();
    expect(returnMarker("#paid=../../bookings")).toBeNull();
    expect(returnMarker(`#other=${UUID}`)).toBeNull();
  });
});

const FUTURE = "2999-01-01T00:00:00Z";
const held = (checkout: Reservation["checkout"], expires_at = FUTURE): Reservation => ({
  uuid: UUID,
  expires_at,
  payment: deposit,
  checkout,
});
const booking = { uuid: "b1", start_time: FUTURE, end_time: FUTURE, links: [] };

/** A client answering GET /reservations from a script, one answer per read (the last repeats). */
function scripted(answers: (Reservation | ApiFailure)[]) {
  const reads: string[] = [];
  const client: Client = {
    get: <T>(path: string) => {
      reads.push(path);
      if (path.startsWith("/bookings/")) return Promise.resolve(booking as T);
      const answer = answers[Math.min(reads.length - 1, answers.length - 1)];
      return answer instanceof ApiFailure ? Promise.reject(answer) : Promise.resolve(answer as T);
    },
    post: () => Promise.reject(new Error("not used")),
    del: () => Promise.resolve(),
  };
  return { client, reads };
}

const instant = { tries: 5, delayMs: 0, sleep: () => Promise.resolve() };
const open = { status: "open" as const, booking_uuid: null };
const complete = { status: "complete" as const, booking_uuid: "b1" };

describe("widget back from the provider's page", () => {
  it("once booked, the confirmation takes the manage link and where it was sent from the checkout", async () => {
    const sent = [{ channel: "email" as const, to: "ada@example.com" }];
    const booked = {
      ...complete,
      manage_url: "https://x/widget/manage#t",
      confirmation_sent_to: sent,
    };
    const { client } = scripted([held(booked)]);
    const back = await comeBack(client, { kind: "paid", reservation: UUID }, instant);
    expect(back).toMatchObject({
      kind: "booked",
      booking: {
        uuid: "b1",
        links: [{ type: "manage", link: "https://x/widget/manage#t" }],
        confirmation_sent_to: sent,
      },
    });
  });

  it("after paying, reads again until the provider's event made the booking", async () => {
    const { client, reads } = scripted([held(open), held(open), held(complete)]);
    await expect(comeBack(client, { kind: "paid", reservation: UUID }, instant)).resolves.toEqual({
      kind: "booked",
      booking,
      terms: deposit,
    });
    expect(reads).toEqual([
      `/reservations/${UUID}`,
      `/reservations/${UUID}`,
      `/reservations/${UUID}`,
      "/bookings/b1",
    ]);
  });

  it("gives up after its tries while the checkout stays open", async () => {
    const { client, reads } = scripted([held(open)]);
    await expect(comeBack(client, { kind: "paid", reservation: UUID }, instant)).resolves.toEqual({
      kind: "pending",
    });
    expect(reads).toHaveLength(5);
  });

  it("back without paying: the hold once, no polling", async () => {
    const { client, reads } = scripted([held(open)]);
    const back = await comeBack(client, { kind: "back", reservation: UUID }, instant);
    expect(back).toEqual({ kind: "held", reservation: held(open) });
    expect(reads).toHaveLength(1);
  });

  it("names why nothing is left to pay for", async () => {
    const gone = (answers: (Reservation | ApiFailure)[], kind: "paid" | "back" = "back") =>
      comeBack(scripted(answers).client, { kind, reservation: UUID }, instant);
    const missing = new ApiFailure(404, "not_found", "No.", {}, null);
    expect(await gone([missing])).toEqual({ kind: "gone", why: "hold_expired" });
    expect(await gone([held(null, "2000-01-01T00:00:00Z")])).toEqual({
      kind: "gone",
      why: "hold_expired",
    });
    expect(await gone([held({ status: "expired", booking_uuid: null })], "paid")).toEqual({
      kind: "gone",
      why: "expired",
    });
    expect(await gone([held({ status: "complete", booking_uuid: null })], "paid")).toEqual({
      kind: "gone",
      why: "lost",
    });
  });

  it("a failure other than 404 is the caller's (the widget offers Try again)", async () => {
    const down = new ApiFailure(503, "unavailable", "Down.", {}, null);
    await expect(
      comeBack(scripted([down]).client, { kind: "paid", reservation: UUID }, instant),
    ).rejects.toBe(down);
  });
});

describe("widget state kept while on the provider's page", () => {
  const kept = {
    selection: { location: "l", services: ["s"], staffer: "", zone: "UTC", seats: { s: 2 } },
    chosen: { start: FUTURE },
    details: {
      first_name: "Ada",
      last_name: "",
      middle_name: "",
      phone: "+49 151 23456789",
      email: "",
      comment: "",
    },
  };

  function withStorage(storage: Partial<Storage>, run: () => void) {
    const before = Object.getOwnPropertyDescriptor(globalThis, "sessionStorage");
    Object.defineProperty(globalThis, "sessionStorage", { value: storage, configurable: true });
    try {
      run();
    } finally {
      if (before) Object.defineProperty(globalThis, "sessionStorage", before);
      else delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
    }
  }

  const memory = () => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
  };

  it("comes back per reservation, and is gone once forgotten", () => {
    const storage = memory();
    withStorage(storage, () => {
      keep(UUID, kept);
      expect(resume(UUID)).toEqual(kept);
      expect(resume("another")).toBeNull();
      forget(UUID);
      expect(resume(UUID)).toBeNull();
    });
  });

  it("ignores what it did not write, and a storage that refuses", () => {
    const storage = memory();
    withStorage(storage, () => {
      storage.items.set(`salon-widget:pay:${UUID}`, JSON.stringify({ ...kept, details: {} }));
      expect(resume(UUID)).toBeNull();
      storage.items.set(`salon-widget:pay:${UUID}`, "{not json");
      expect(resume(UUID)).toBeNull();
    });
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    withStorage(refusing, () => {
      expect(() => keep(UUID, kept)).not.toThrow();
      expect(resume(UUID)).toBeNull();
    });
  });
});

describe("widget choice read back from a held reservation", () => {
  const item = (services: { service_uuid: string; staffer_uuid: string; quantity: number }[]) => ({
    ...held({ status: "open", booking_uuid: null }),
    items: [{ datetime_start: FUTURE, services }],
  });

  it("services, party sizes above one, and the staffer when there is one", () => {
    expect(
      heldChoice(
        item([
          { service_uuid: "a", staffer_uuid: "mia", quantity: 1 },
          { service_uuid: "b", staffer_uuid: "mia", quantity: 3 },
        ]),
      ),
    ).toEqual({ services: ["a", "b"], staffer: "mia", seats: { b: 3 }, chosen: { start: FUTURE } });
  });

  it("anyone when the services are with different staff; null without items", () => {
    expect(
      heldChoice(
        item([
          { service_uuid: "a", staffer_uuid: "mia", quantity: 1 },
          { service_uuid: "b", staffer_uuid: "jonas", quantity: 1 },
        ]),
      )?.staffer,
    ).toBe("");
    expect(heldChoice(held(null))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { ApiFailure, type Client } from "../../widget/api";
import { bookingRefusal, hold } from "../../widget/flow";
import { en } from "../../widget/i18n/en";

/** A client whose POST /reservations fails as given. */
const refusing = (failure: ApiFailure): Client => ({
  get: () => Promise.reject(new Error("not used")),
  post: () => Promise.reject(failure),
  del: () => Promise.resolve(),
});

const selection = { location: "l", services: ["s"], staffer: "", zone: "UTC" };
const slot = { start: "2030-03-04T09:00:00Z" };

describe("widget hold", () => {
  it.each([
    ["429 too_many_holds", new ApiFailure(429, "too_many_holds", "Too many.", {}, null)],
    [
      "422 past a visitor's bounds",
      new ApiFailure(422, "validation_failed", "Too long.", { "items.0.services": ["…"] }, null),
    ],
    ["403 (no reservations for this key)", new ApiFailure(403, "forbidden", "No.", {}, null)],
  ])("goes on without a hold on %s (the booking then goes direct)", async (_name, failure) => {
    await expect(hold(refusing(failure), selection, slot)).resolves.toBeNull();
  });

  it("still reports a taken slot (409) and a plain rate limit", async () => {
    const taken = new ApiFailure(409, "slot_unavailable", "Taken.", {}, []);
    await expect(hold(refusing(taken), selection, slot)).rejects.toBe(taken);
    const limited = new ApiFailure(429, "rate_limited", "Slow down.", {}, null);
    await expect(hold(refusing(limited), selection, slot)).rejects.toBe(limited);
  });
});

/**
 * After a refused hold the widget books direct, which meets the same bounds
 * (the API bounds a publishable booking as it bounds a hold): the visitor gets
 * a clear message, not the API's words, and no "Try again" for it.
 */
describe("widget booking refused for a visitor's bounds", () => {
  it("explains 429 too_many_bookings", () => {
    const capped = new ApiFailure(429, "too_many_bookings", "At most 6.", {}, null);
    const key = bookingRefusal(capped);
    expect(key).toBe("error.too_many_bookings");
    expect(key && en[key]).toMatch(/call the salon/);
  });

  it.each([
    ["a single booking", { service_uuid: ["…at most 4 hours of staff time…"] }],
    ["a cart's services", { "items.0.services": ["…at most 4 services in all."] }],
    ["a cart's hours", { "items.1.services.0.service_uuid": ["…at most 4 hours…"] }],
  ])("explains a 422 on %s", (_name, fields) => {
    const bounded = new ApiFailure(422, "validation_failed", "Invalid.", fields, null);
    const key = bookingRefusal(bounded);
    expect(key).toBe("error.choice_too_big");
    expect(key && en[key]).toMatch(/fewer services/);
  });

  it("leaves every other failure to the form, the conflict notice or a retry", () => {
    const form = new ApiFailure(422, "validation_failed", "x", { customer_email: ["Bad."] }, null);
    const mixed = new ApiFailure(
      422,
      "validation_failed",
      "x",
      { customer_email: ["Bad."], service_uuid: ["…"] },
      null,
    );
    const taken = new ApiFailure(409, "slot_unavailable", "Taken.", {}, []);
    const limited = new ApiFailure(429, "rate_limited", "Slow down.", {}, null);
    for (const e of [form, mixed, taken, limited, new Error("x")]) {
      expect(bookingRefusal(e)).toBeNull();
    }
  });
});

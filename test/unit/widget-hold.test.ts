import { describe, expect, it } from "vitest";
import { ApiFailure, type Client } from "../../widget/api";
import { hold } from "../../widget/flow";

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

import { describe, expect, it } from "vitest";
import { ApiError, InvalidError } from "../../src/platform/errors";
import { type FieldNames, inFields, withFields } from "../../src/http/request-fields";

type Thing = { is: "location" } | { is: "staffer"; item: number; service: number };

const CART: FieldNames<Thing> = {
  location: "location_uuid",
  staffer: ({ item, service }) => `items.${item}.services.${service}.staffer_uuid`,
};
const SINGLE: FieldNames<Thing> = { location: "location_uuid", staffer: "staffer_uuid" };

const refusal = () =>
  new InvalidError<Thing>([
    { about: { is: "staffer", item: 1, service: 0 }, messages: ["Not here."] },
    { about: { is: "location" }, messages: ["Unknown location."] },
  ]);

describe("inFields: a use-case's refusal in one body's field names", () => {
  it("names each subject as the body does, in the order refused, with the usual summary", () => {
    for (const [names, staffer] of [
      [CART, "items.1.services.0.staffer_uuid"],
      [SINGLE, "staffer_uuid"],
    ] as const) {
      const error = inFields(refusal(), names);
      expect(error).toBeInstanceOf(ApiError);
      const api = error as ApiError;
      expect(api.code).toBe("validation_failed");
      expect(api.message).toBe("Not here. (and 1 more error)");
      expect(Object.entries(api.errors ?? {})).toEqual([
        [staffer, ["Not here."]],
        ["location_uuid", ["Unknown location."]],
      ]);
    }
  });

  it("a later problem on the same field replaces the earlier one where it stood", () => {
    const both = new InvalidError<Thing>([
      { about: { is: "staffer", item: 0, service: 0 }, messages: ["First."] },
      { about: { is: "location" }, messages: ["Unknown location."] },
      { about: { is: "staffer", item: 0, service: 1 }, messages: ["Second."] },
    ]);
    const api = inFields(both, SINGLE) as ApiError;
    expect(Object.entries(api.errors ?? {})).toEqual([
      ["staffer_uuid", ["Second."]],
      ["location_uuid", ["Unknown location."]],
    ]);
  });

  it("keeps another code and its message", () => {
    const taken = new InvalidError<Thing>([{ about: { is: "location" }, messages: ["Closed."] }], {
      code: "voucher_unavailable",
      message: "A voucher cannot pay what was asked of it.",
    });
    const api = inFields(taken, SINGLE) as ApiError;
    expect([api.code, api.status, api.message, api.errors]).toEqual([
      "voucher_unavailable",
      409,
      "A voucher cannot pay what was asked of it.",
      { location_uuid: ["Closed."] },
    ]);
  });

  it("passes other errors through, and never puts a subject no route names in a body", () => {
    const other = new ApiError("conflict", "No.");
    expect(inFields(other, SINGLE)).toBe(other);
    const stray = new InvalidError([{ about: { is: "planet" }, messages: ["Far."] }]);
    const error = inFields(stray, SINGLE);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('no request field for "planet"');
    // Unmapped, it is no ApiError either: the error handler answers 500, not a domain name.
    expect(stray).not.toBeInstanceOf(ApiError);
  });

  it("withFields maps what the use-case throws, sync or async", async () => {
    await expect(
      withFields(CART, () => {
        throw refusal();
      }),
    ).rejects.toMatchObject({ errors: { "items.1.services.0.staffer_uuid": ["Not here."] } });
    await expect(withFields(CART, async () => 7)).resolves.toBe(7);
  });
});

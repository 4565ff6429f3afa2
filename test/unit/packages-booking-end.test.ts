import { describe, expect, it } from "vitest";
import { endsOf, expiredBy, replacedUse } from "../../src/packages/rules/booking-end";

const MIN = 60_000;
const use = (over: Partial<Parameters<typeof endsOf>[0][number]> = {}) => ({
  id: "u1",
  state: "reserved" as const,
  lateCancelMinutes: 60,
  noShowUses: false,
  createdAt: 0,
  ...over,
});

describe("endsOf", () => {
  const start = 1_000 * MIN;
  it("a complete uses every held use and leaves ended ones alone", () => {
    const ends = endsOf([use(), use({ id: "u2", state: "returned" })], { kind: "complete" });
    expect(ends.map((e) => [e.use.id, e.end])).toEqual([["u1", "used"]]);
  });

  it("a cancel: returned before the late window, used inside it (its edge included)", () => {
    const cancelAt = (at: number) =>
      endsOf([use()], { kind: "cancel", at, start, noShow: false })[0]?.end;
    expect(cancelAt(start - 61 * MIN)).toBe("returned");
    expect(cancelAt(start - 60 * MIN)).toBe("used");
    expect(cancelAt(start - MIN)).toBe("used");
    expect(
      endsOf([use({ lateCancelMinutes: null })], {
        kind: "cancel",
        at: start,
        start,
        noShow: false,
      })[0]?.end,
    ).toBe("returned");
  });

  it("a no-show uses it only when the policy had a no-show fee", () => {
    const early = start - 600 * MIN;
    const noShow = (noShowUses: boolean) =>
      endsOf([use({ noShowUses })], { kind: "cancel", at: early, start, noShow: true })[0]?.end;
    expect(noShow(true)).toBe("used");
    expect(noShow(false)).toBe("returned");
  });
});

describe("expiredBy", () => {
  const credits = [{ id: "c1", expiresAt: 5_000 }];
  it("a start at or after the credit's expiry is past it; before, not; ended uses never", () => {
    const held = [{ state: "reserved", creditId: "c1" }];
    expect(expiredBy(held, credits, 4_999)).toEqual([]);
    expect(expiredBy(held, credits, 5_000)).toEqual(held);
    expect(expiredBy([{ state: "used", creditId: "c1" }], credits, 9_000)).toEqual([]);
  });
});

describe("replacedUse", () => {
  it("keeps the credit for a service it names, returns it otherwise", () => {
    expect(replacedUse({ serviceIds: ["a", "b"] }, "b")).toBe("kept");
    expect(replacedUse({ serviceIds: ["a"] }, "b")).toBe("returned");
  });
});

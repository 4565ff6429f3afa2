import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocateCredits,
  available,
  cancelUse,
  type CreditAsk,
  type CreditLine,
  creditsExpireAt,
  isTouched,
  nextChargeAfter,
  packageStatus,
  periodAt,
  periodBounds,
  periodStart,
  periodToCharge,
  RETRY_AFTER_MS,
  renewalKey,
  retryAt,
} from "../../src/packages/rules";

const DAY = 86_400_000;
const utc = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

const SERVICES = ["s1", "s2", "s3", "s4"];
const T0 = utc("2030-01-01T00:00:00Z");

const creditArb = fc
  .record({
    serviceIds: fc.subarray(SERVICES, { minLength: 1 }),
    total: fc.integer({ min: 0, max: 5 }),
    usedShare: fc.nat(5),
    reservedShare: fc.nat(5),
    expiresIn: fc.integer({ min: -3, max: 6 }),
    period: fc.integer({ min: 1, max: 3 }),
  })
  .map((r) => {
    const used = Math.min(r.usedShare, r.total);
    const reserved = Math.min(r.reservedShare, r.total - used);
    return {
      serviceIds: r.serviceIds,
      total: r.total,
      used,
      reserved,
      expiresAt: T0 + r.expiresIn * DAY,
      period: r.period,
    };
  });

const creditsArb = fc
  .array(creditArb, { maxLength: 6 })
  .map((cs): CreditLine[] => cs.map((c, i) => ({ ...c, id: `c${i}`, position: i })));

const askArb = fc.record({
  serviceId: fc.constantFrom(...SERVICES, "s9"),
  start: fc.integer({ min: -2, max: 5 }).map((d) => T0 + d * DAY),
  count: fc.integer({ min: 1, max: 3 }),
});
const asksArb = fc
  .array(askArb, { minLength: 1, maxLength: 6 })
  .map((as): CreditAsk[] => as.map((a, i) => ({ ...a, key: `k${i}` })));

const line = (over: Partial<CreditLine> & { id: string }): CreditLine => ({
  period: 1,
  position: 0,
  serviceIds: ["s1"],
  total: 1,
  used: 0,
  reserved: 0,
  expiresAt: T0 + 10 * DAY,
  ...over,
});
const ask = (over: Partial<CreditAsk> = {}): CreditAsk => ({
  key: "k",
  serviceId: "s1",
  start: T0,
  count: 1,
  ...over,
});

describe("allocateCredits", () => {
  it("never takes more from a credit than it has available", () => {
    fc.assert(
      fc.property(creditsArb, asksArb, (credits, asks) => {
        const result = allocateCredits(credits, asks);
        if (!result.ok) return;
        for (const c of credits) {
          const taken = result.uses
            .filter((u) => u.creditId === c.id)
            .reduce((n, u) => n + u.count, 0);
          expect(taken).toBeLessThanOrEqual(available(c));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is all or nothing: every ask served once by a credit naming it and lasting, or refusals only", () => {
    fc.assert(
      fc.property(creditsArb, asksArb, (credits, asks) => {
        const result = allocateCredits(credits, asks);
        if (result.ok) {
          expect(result.uses.map((u) => u.key)).toEqual(asks.map((a) => a.key));
          result.uses.forEach((u, i) => {
            const a = asks[i];
            const c = credits.find((x) => x.id === u.creditId);
            expect(a && c).toBeTruthy();
            if (!a || !c) return;
            expect(c.serviceIds).toContain(a.serviceId);
            expect(c.expiresAt).toBeGreaterThan(a.start);
            expect(u.count).toBe(a.count);
          });
        } else {
          expect(result.refusals.length).toBeGreaterThan(0);
          expect(result).not.toHaveProperty("uses");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("gives each refusal its reason", () => {
    fc.assert(
      fc.property(creditsArb, asksArb, (credits, asks) => {
        const result = allocateCredits(credits, asks);
        if (result.ok) return;
        for (const r of result.refusals) {
          const a = asks.find((x) => x.key === r.key);
          if (!a) throw new Error("refusal of no ask");
          const naming = credits.filter((c) => c.serviceIds.includes(a.serviceId));
          const lasting = naming.filter((c) => c.expiresAt > a.start);
          if (r.why === "not_covered") expect(naming).toEqual([]);
          if (r.why === "expired") {
            expect(naming.length).toBeGreaterThan(0);
            expect(lasting).toEqual([]);
          }
          if (r.why === "used_up") {
            expect(lasting.length).toBeGreaterThan(0);
            // After what the asks before it were given, nothing lasting had enough.
            const refused = new Set(result.refusals.map((x) => x.key));
            const before = asks.slice(0, asks.indexOf(a)).filter((x) => !refused.has(x.key));
            const earlier = allocateCredits(credits, before);
            expect(earlier.ok).toBe(true);
            const took = (id: string) =>
              earlier.ok
                ? earlier.uses.filter((u) => u.creditId === id).reduce((n, u) => n + u.count, 0)
                : 0;
            for (const c of lasting) expect(available(c) - took(c.id)).toBeLessThan(a.count);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("serves a lone ask whenever some credit can, from the one expiring soonest", () => {
    fc.assert(
      fc.property(creditsArb, askArb, (credits, a) => {
        const one = { ...a, key: "k" };
        const eligible = credits.filter(
          (c) =>
            c.serviceIds.includes(a.serviceId) && c.expiresAt > a.start && available(c) >= a.count,
        );
        const result = allocateCredits(credits, [one]);
        expect(result.ok).toBe(eligible.length > 0);
        if (!result.ok) return;
        const chosen = credits.find((c) => c.id === result.uses[0]?.creditId);
        const soonest = Math.min(...eligible.map((c) => c.expiresAt));
        expect(chosen?.expiresAt).toBe(soonest);
      }),
      { numRuns: 500 },
    );
  });

  it("prefers the soonest expiry, then the older period, then the template's order", () => {
    const later = line({ id: "later", expiresAt: T0 + 20 * DAY, position: 0 });
    const sooner = line({ id: "sooner", expiresAt: T0 + 5 * DAY, position: 1 });
    expect(allocateCredits([later, sooner], [ask()])).toEqual({
      ok: true,
      uses: [{ key: "k", creditId: "sooner", count: 1 }],
    });
    const p2 = line({ id: "p2", period: 2, position: 0 });
    const p1 = line({ id: "p1", period: 1, position: 1 });
    expect(allocateCredits([p2, p1], [ask()])).toMatchObject({ uses: [{ creditId: "p1" }] });
    const second = line({ id: "second", position: 1 });
    const first = line({ id: "first", position: 0 });
    expect(allocateCredits([second, first], [ask()])).toMatchObject({
      uses: [{ creditId: "first" }],
    });
  });

  it("lets later asks see what earlier ones took, and refuses all when one cannot be served", () => {
    const c = line({ id: "c", total: 2 });
    expect(allocateCredits([c], [ask({ key: "a" }), ask({ key: "b" })])).toEqual({
      ok: true,
      uses: [
        { key: "a", creditId: "c", count: 1 },
        { key: "b", creditId: "c", count: 1 },
      ],
    });
    expect(allocateCredits([c], [ask({ key: "a" }), ask({ key: "b" }), ask({ key: "c" })])).toEqual(
      { ok: false, refusals: [{ key: "c", why: "used_up" }] },
    );
  });

  it("counts a held credit as taken and takes seats from one credit only", () => {
    const held = line({ id: "h", total: 2, used: 1, reserved: 1 });
    expect(allocateCredits([held], [ask()])).toEqual({
      ok: false,
      refusals: [{ key: "k", why: "used_up" }],
    });
    // Two credits with one left each do not pay for two seats together.
    const a = line({ id: "a" });
    const b = line({ id: "b", position: 1 });
    expect(allocateCredits([a, b], [ask({ count: 2 })])).toMatchObject({ ok: false });
    expect(allocateCredits([a, line({ id: "c", total: 2 })], [ask({ count: 2 })])).toMatchObject({
      uses: [{ creditId: "c", count: 2 }],
    });
  });

  it("refuses a credit expiring exactly at the start, not one a ms later", () => {
    const c = line({ id: "c", expiresAt: T0 });
    expect(allocateCredits([c], [ask({ start: T0 })])).toEqual({
      ok: false,
      refusals: [{ key: "k", why: "expired" }],
    });
    expect(allocateCredits([c], [ask({ start: T0 - 1 })])).toMatchObject({ ok: true });
    expect(allocateCredits([c], [ask({ serviceId: "s2" })])).toEqual({
      ok: false,
      refusals: [{ key: "k", why: "not_covered" }],
    });
    expect(allocateCredits([], [ask()])).toMatchObject({
      refusals: [{ why: "not_covered" }],
    });
  });
});

describe("periodStart and periodAt", () => {
  it("counts months from the first start, clamped at month end: Jan 31 → Feb 28/29 → Mar 31", () => {
    const jan31 = utc("2030-01-31T10:00:00Z");
    expect([1, 2, 3, 4, 13].map((k) => iso(periodStart(jan31, k)))).toEqual([
      "2030-01-31T10:00:00.000Z",
      "2030-02-28T10:00:00.000Z",
      "2030-03-31T10:00:00.000Z",
      "2030-04-30T10:00:00.000Z",
      "2031-01-31T10:00:00.000Z",
    ]);
    const leap = utc("2028-01-31T00:00:00Z");
    expect(iso(periodStart(leap, 2))).toBe("2028-02-29T00:00:00.000Z");
    expect(iso(periodStart(leap, 3))).toBe("2028-03-31T00:00:00.000Z");
    expect(iso(periodStart(utc("2028-02-29T08:00:00Z"), 13))).toBe("2029-02-28T08:00:00.000Z");
    expect(iso(periodStart(utc("2028-02-29T08:00:00Z"), 49))).toBe("2032-02-29T08:00:00.000Z");
  });

  it("refuses a period that is not a positive integer", () => {
    for (const k of [0, -1, 1.5, Number.NaN]) expect(() => periodStart(T0, k)).toThrow(RangeError);
  });

  it("inverts: periodAt(periodStart(k)) = k for every k up to 1200, and a ms before is k − 1", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc("2000-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") }),
        fc.integer({ min: 1, max: 1200 }),
        (first, k) => {
          const start = periodStart(first, k);
          expect(periodAt(first, start)).toBe(k);
          expect(periodAt(first, start - 1)).toBe(k - 1);
          expect(periodAt(first, periodStart(first, k + 1) - 1)).toBe(k);
        },
      ),
      { numRuns: 200 },
    );
    const jan31 = utc("2030-01-31T00:00:00Z");
    for (let k = 1; k <= 1200; k++) expect(periodAt(jan31, periodStart(jan31, k))).toBe(k);
  }, 30_000);

  it("is monotonic: later periods start later, later instants fall in the same or a later period", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc("2000-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") }),
        fc.integer({ min: 1, max: 1199 }),
        fc.nat(100 * 366 * DAY),
        fc.nat(60 * DAY),
        (first, k, offset, more) => {
          expect(periodStart(first, k + 1)).toBeGreaterThan(periodStart(first, k));
          expect(periodAt(first, first + offset + more)).toBeGreaterThanOrEqual(
            periodAt(first, first + offset),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("answers 0 before the first period", () => {
    expect(periodAt(T0, T0 - 1)).toBe(0);
    expect(periodAt(T0, T0)).toBe(1);
  });

  it("bounds a package by its validity and a membership's period by the next one", () => {
    expect(creditsExpireAt(T0, 30)).toBe(T0 + 30 * DAY);
    expect(periodBounds({ startsAt: T0, validDays: 30, renews: null }, 1)).toEqual({
      start: T0,
      end: T0 + 30 * DAY,
    });
    const jan31 = utc("2030-01-31T00:00:00Z");
    expect(periodBounds({ startsAt: jan31, validDays: 45, renews: "month" }, 2)).toEqual({
      start: utc("2030-02-28T00:00:00Z"),
      end: utc("2030-03-31T00:00:00Z"),
    });
  });
});

describe("packageStatus", () => {
  const live = { total: 2, used: 0, reserved: 0, expiresAt: T0 + DAY };
  const spent = { total: 2, used: 1, reserved: 1, expiresAt: T0 + DAY };
  const gone = { total: 2, used: 0, reserved: 0, expiresAt: T0 };
  const active = { status: "active" as const, pastDue: false };

  it("ranks void > past_due > expired > used_up > active", () => {
    expect(packageStatus({ status: "void", pastDue: true }, [live], T0)).toBe("void");
    expect(packageStatus({ status: "void", pastDue: false }, [gone], T0)).toBe("void");
    expect(packageStatus({ status: "active", pastDue: true }, [gone], T0)).toBe("past_due");
    expect(packageStatus({ status: "active", pastDue: true }, [live], T0)).toBe("past_due");
    expect(packageStatus(active, [gone], T0)).toBe("expired");
    expect(packageStatus(active, [], T0)).toBe("expired");
    expect(packageStatus(active, [gone, spent], T0)).toBe("used_up");
    expect(packageStatus(active, [spent, live], T0)).toBe("active");
  });

  it("expires a credit at its instant exactly; a held credit coming back makes it active again", () => {
    expect(packageStatus(active, [live], T0 + DAY - 1)).toBe("active");
    expect(packageStatus(active, [live], T0 + DAY)).toBe("expired");
    expect(packageStatus(active, [{ ...spent, reserved: 0 }], T0)).toBe("active");
  });

  it("follows the precedence for any credits", () => {
    const counts = fc
      .record({
        total: fc.nat(3),
        used: fc.nat(3),
        reserved: fc.nat(3),
        day: fc.integer({ min: -2, max: 2 }),
      })
      .map((c) => {
        const used = Math.min(c.used, c.total);
        return {
          total: c.total,
          used,
          reserved: Math.min(c.reserved, c.total - used),
          expiresAt: T0 + c.day * DAY,
        };
      });
    fc.assert(
      fc.property(
        fc.constantFrom("active" as const, "void" as const),
        fc.boolean(),
        fc.array(counts, { maxLength: 5 }),
        (status, pastDue, credits) => {
          const s = packageStatus({ status, pastDue }, credits, T0);
          const unexpired = credits.filter((c) => c.expiresAt > T0);
          const expected =
            status === "void"
              ? "void"
              : pastDue
                ? "past_due"
                : unexpired.length === 0
                  ? "expired"
                  : unexpired.some((c) => available(c) > 0)
                    ? "active"
                    : "used_up";
          expect(s).toBe(expected);
        },
      ),
    );
  });

  it("calls a package touched once anything was used or is held", () => {
    expect(isTouched([live, gone])).toBe(false);
    expect(isTouched([live, { ...live, reserved: 1 }])).toBe(true);
    expect(isTouched([{ ...live, used: 1 }])).toBe(true);
    expect(isTouched([])).toBe(false);
  });
});

describe("cancelUse", () => {
  const start = T0 + 10 * DAY;
  const booked = start - 5 * DAY;
  const window = { lateCancelMinutes: 60, noShowUses: false, createdAt: booked };

  it("uses the credit for a cancel exactly at the window, returns it one ms outside", () => {
    expect(cancelUse(window, { at: start - 60 * 60_000, start, noShow: false })).toBe("used");
    expect(cancelUse(window, { at: start - 60 * 60_000 - 1, start, noShow: false })).toBe(
      "returned",
    );
    expect(cancelUse(window, { at: start - 1, start, noShow: false })).toBe("used");
    expect(cancelUse(window, { at: start + 5 * 60_000, start, noShow: false })).toBe("used");
  });

  it("returns it whenever the service had no late-cancel fee", () => {
    const none = { lateCancelMinutes: null, noShowUses: false, createdAt: booked };
    expect(cancelUse(none, { at: start, start, noShow: false })).toBe("returned");
    expect(cancelUse(none, { at: start + DAY, start, noShow: false })).toBe("returned");
  });

  it("a window of 0 uses it only from the start on", () => {
    const zero = { lateCancelMinutes: 0, noShowUses: false, createdAt: booked };
    expect(cancelUse(zero, { at: start - 1, start, noShow: false })).toBe("returned");
    expect(cancelUse(zero, { at: start, start, noShow: false })).toBe("used");
  });

  it("a booking made once its window had opened gives the credit back on any cancel", () => {
    const opens = start - 60 * 60_000;
    const late = { ...window, createdAt: opens };
    expect(cancelUse(late, { at: opens + 1, start, noShow: false })).toBe("returned");
    expect(cancelUse(late, { at: start + 1, start, noShow: false })).toBe("returned");
    // Booked one ms before the window opened: a cancel inside it is late.
    const inTime = { ...window, createdAt: opens - 1 };
    expect(cancelUse(inTime, { at: opens, start, noShow: false })).toBe("used");
    // A no-show is a no-show whenever the booking was made.
    expect(cancelUse({ ...late, noShowUses: true }, { at: start, start, noShow: true })).toBe(
      "used",
    );
  });

  it("a no-show uses it only when the policy had a no-show fee, whatever the window", () => {
    expect(
      cancelUse(
        { lateCancelMinutes: 60, noShowUses: false, createdAt: booked },
        { at: start, start, noShow: true },
      ),
    ).toBe("returned");
    expect(
      cancelUse(
        { lateCancelMinutes: null, noShowUses: true, createdAt: booked },
        { at: start - DAY, start, noShow: true },
      ),
    ).toBe("used");
  });
});

describe("renewal timing", () => {
  const jan31 = utc("2030-01-31T09:00:00Z");
  const billing = { startsAt: jan31, period: 1, renewing: true };

  it("charges only the period now falls in, once it has started and is not paid", () => {
    expect(periodToCharge(billing, jan31 + DAY)).toBeNull();
    expect(periodToCharge(billing, utc("2030-02-28T08:59:59.999Z"))).toBeNull();
    expect(periodToCharge(billing, utc("2030-02-28T09:00:00Z"))).toBe(2);
    // Months unpaid are not billed: only the current one.
    expect(periodToCharge(billing, utc("2030-06-15T00:00:00Z"))).toBe(5);
    expect(periodToCharge({ ...billing, period: 5 }, utc("2030-06-15T00:00:00Z"))).toBeNull();
    expect(periodToCharge({ ...billing, renewing: false }, utc("2030-06-15T00:00:00Z"))).toBeNull();
  });

  it("never charges a paid period again, and charges one exactly when unpaid and current", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 5 * 366 * DAY }),
        (period, offset) => {
          const now = jan31 + offset;
          const k = periodToCharge({ startsAt: jan31, period, renewing: true }, now);
          const current = periodAt(jan31, now);
          expect(k).toBe(current > period ? current : null);
          if (k !== null) {
            expect(periodStart(jan31, k)).toBeLessThanOrEqual(now);
            expect(periodStart(jan31, k + 1)).toBeGreaterThan(now);
          }
        },
      ),
    );
  });

  it("looks next at the next period's start while renewing", () => {
    expect(nextChargeAfter(billing)).toBe(utc("2030-02-28T09:00:00Z"));
    expect(nextChargeAfter({ ...billing, period: 2 })).toBe(utc("2030-03-31T09:00:00Z"));
    expect(nextChargeAfter({ ...billing, renewing: false })).toBeNull();
  });

  it("retries a day later, never past the next period's start", () => {
    const feb28 = utc("2030-02-28T09:00:00Z");
    expect(retryAt(billing, 2, feb28)).toBe(feb28 + RETRY_AFTER_MS);
    const lastDay = utc("2030-03-31T08:00:00Z");
    expect(retryAt(billing, 2, lastDay)).toBe(utc("2030-03-31T09:00:00Z"));
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), fc.nat(40 * DAY), (period, into) => {
        const now = periodStart(jan31, period) + into;
        const next = periodStart(jan31, period + 1);
        fc.pre(now < next);
        const at = retryAt(billing, period, now);
        expect(at).toBeGreaterThan(now);
        expect(at).toBeLessThanOrEqual(next);
        expect(at).toBeLessThanOrEqual(now + RETRY_AFTER_MS);
      }),
    );
  });

  it("keys one try of one period's charge", () => {
    expect(renewalKey("m", 3, 1)).toBe("membership:m:3:1");
    expect(renewalKey("m", 3, 2)).not.toBe(renewalKey("m", 3, 1));
    expect(renewalKey("m", 4, 1)).not.toBe(renewalKey("m", 3, 1));
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { beforeDeadline, policyVerdict } from "../../src/bookings/rules/policy";

const MIN = 60_000;
const START = Date.parse("2030-03-04T10:00:00Z");
const open = { isCanceled: false, isCompleted: false, startAt: START };

describe("beforeDeadline", () => {
  it("allows up to and including the deadline, not a millisecond after", () => {
    expect(beforeDeadline(60, START, START - 61 * MIN)).toBe(true);
    expect(beforeDeadline(60, START, START - 60 * MIN)).toBe(true);
    expect(beforeDeadline(60, START, START - 60 * MIN + 1)).toBe(false);
    expect(beforeDeadline(60, START, START - 59 * MIN)).toBe(false);
  });

  it("0 sets no deadline before the start, but a booking that has begun is closed to customers", () => {
    expect(beforeDeadline(0, START, START - 365 * 24 * 60 * MIN)).toBe(true);
    expect(beforeDeadline(0, START, START - 1)).toBe(true);
    expect(beforeDeadline(0, START, START)).toBe(false);
    expect(beforeDeadline(0, START, START + 365 * 24 * 60 * MIN)).toBe(false);
  });

  it("property: one minute outside the window allowed, one minute inside refused", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 525_600 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (offset, startAt) => {
          const deadline = startAt - offset * MIN;
          expect(beforeDeadline(offset, startAt, deadline - MIN)).toBe(true);
          expect(beforeDeadline(offset, startAt, deadline)).toBe(true);
          expect(beforeDeadline(offset, startAt, deadline + 1)).toBe(false);
          expect(beforeDeadline(offset, startAt, deadline + MIN)).toBe(false);
        },
      ),
    );
  });

  it("property: monotone in time (once refused, refused for every later instant)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 0, max: 1e9 }),
        (offset, at, later) => {
          if (!beforeDeadline(offset, START, START + at))
            expect(beforeDeadline(offset, START, START + at + later)).toBe(false);
        },
      ),
    );
  });
});

describe("policyVerdict", () => {
  it("judges cancel by its offset, and a change by the later of the two deadlines", () => {
    const now = START - 90 * MIN;
    // Moving a booking frees its time like a cancel: past the cancel deadline, no move either.
    expect(policyVerdict({ cancellationOffset: 120, changeOffset: 60 }, open, now)).toEqual({
      isCancelable: false,
      isChangeable: false,
    });
    expect(policyVerdict({ cancellationOffset: 60, changeOffset: 120 }, open, now)).toEqual({
      isCancelable: true,
      isChangeable: false,
    });
    expect(policyVerdict({ cancellationOffset: 60, changeOffset: 30 }, open, now)).toEqual({
      isCancelable: true,
      isChangeable: true,
    });
  });

  it("property: whenever a change is allowed, so is a cancel (a move cannot dodge the cancel deadline)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 525_600 }),
        fc.integer({ min: 0, max: 525_600 }),
        fc.integer({ min: -1e10, max: 1e10 }),
        (cancellationOffset, changeOffset, at) => {
          const verdict = policyVerdict({ cancellationOffset, changeOffset }, open, START + at);
          if (verdict.isChangeable) expect(verdict.isCancelable).toBe(true);
        },
      ),
    );
  });

  it("a closed booking is neither cancelable nor changeable, whatever the policy", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 525_600 }),
        fc.integer({ min: 0, max: 525_600 }),
        fc.boolean(),
        fc.integer({ min: -1e10, max: 1e10 }),
        (cancellationOffset, changeOffset, canceled, at) => {
          const booking = { isCanceled: canceled, isCompleted: !canceled, startAt: START };
          expect(policyVerdict({ cancellationOffset, changeOffset }, booking, START + at)).toEqual({
            isCancelable: false,
            isChangeable: false,
          });
        },
      ),
    );
  });

  it("no limit: an open booking is cancelable and changeable at any time before it starts", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (at) => {
        const before = at < 0;
        expect(policyVerdict({ cancellationOffset: 0, changeOffset: 0 }, open, START + at)).toEqual(
          { isCancelable: before, isChangeable: before },
        );
      }),
    );
  });
});

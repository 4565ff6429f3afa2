import { describe, expect, it } from "vitest";
import { localShift } from "../../src/bookings/rules/shift";

const BERLIN = "Europe/Berlin";
const ms = (iso: string) => Date.parse(iso);

describe("localShift: a series moves in local wall-clock time", () => {
  it("10:00 → 11:00 stays 11:00 local after the spring change (an instant shift would not)", () => {
    // Tue 2031-03-25 10:00 CET (09:00Z) → 11:00 CET (10:00Z).
    const shift = localShift(ms("2031-03-25T09:00:00Z"), ms("2031-03-25T10:00:00Z"), BERLIN);
    // Tue 2031-04-01 10:00 CEST is 08:00Z; 11:00 CEST is 09:00Z.
    expect(new Date(shift.apply(ms("2031-04-01T08:00:00Z"))).toISOString()).toBe(
      "2031-04-01T09:00:00.000Z",
    );
  });

  it("keeps the local time across the autumn change, days included", () => {
    // Mon 10:00 CEST → Tue 09:30 CEST: one day minus 30 minutes, local.
    const shift = localShift(ms("2031-10-20T08:00:00Z"), ms("2031-10-21T07:30:00Z"), BERLIN);
    // Mon 2031-10-27 10:00 CET (09:00Z) → Tue 09:30 CET (08:30Z).
    expect(new Date(shift.apply(ms("2031-10-27T09:00:00Z"))).toISOString()).toBe(
      "2031-10-28T08:30:00.000Z",
    );
  });

  it("a local time the change skips moves forward by the gap; a repeated one takes the first", () => {
    // 01:30 → 02:30 local; 2031-03-30 has no 02:30 in Berlin (02:00 → 03:00).
    const spring = localShift(ms("2031-03-23T00:30:00Z"), ms("2031-03-23T01:30:00Z"), BERLIN);
    expect(new Date(spring.apply(ms("2031-03-30T00:30:00Z"))).toISOString()).toBe(
      "2031-03-30T01:30:00.000Z", // 03:30 CEST
    );
    // 01:30 → 02:30 local; 2031-10-26 has 02:30 twice: the first is CEST (00:30Z).
    const autumn = localShift(ms("2031-10-19T23:30:00Z"), ms("2031-10-20T00:30:00Z"), BERLIN);
    expect(new Date(autumn.apply(ms("2031-10-25T23:30:00Z"))).toISOString()).toBe(
      "2031-10-26T00:30:00.000Z",
    );
  });

  it("a move to the same time is no move", () => {
    const same = localShift(ms("2031-05-06T08:00:00Z"), ms("2031-05-06T08:00:00Z"), BERLIN);
    expect(same.apply(ms("2031-11-11T09:00:00Z"))).toBe(ms("2031-11-11T09:00:00Z"));
  });
});

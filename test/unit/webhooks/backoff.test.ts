import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_DELAY_SECONDS,
  parseRetryAfter,
  retryDelaySeconds,
} from "../../../src/platform/rules/backoff";
import { parseStatuses } from "../../../src/webhooks/rules/success-statuses";

describe("retry backoff", () => {
  it("doubles per attempt with equal jitter: 30 s base gives 15–30, 30–60, 60–120", () => {
    expect(retryDelaySeconds(1, 30, 0)).toBe(15);
    expect(retryDelaySeconds(1, 30, 0.999)).toBe(29);
    expect(retryDelaySeconds(2, 30, 0)).toBe(30);
    expect(retryDelaySeconds(3, 30, 0.5)).toBe(90);
  });

  it("honours a longer Retry-After, but never beyond the queue's 12 h limit", () => {
    expect(retryDelaySeconds(1, 30, 0, 600)).toBe(600);
    expect(retryDelaySeconds(1, 30, 0, 5)).toBe(15);
    expect(retryDelaySeconds(1, 30, 0, 10 ** 9)).toBe(MAX_DELAY_SECONDS);
  });

  it("stays within [exp/2, min(exp, 12 h)] for any attempt and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (a, r) => {
          const d = retryDelaySeconds(a, 30, r);
          const exp = Math.min(30 * 2 ** (a - 1), MAX_DELAY_SECONDS);
          expect(d).toBeGreaterThanOrEqual(Math.floor(exp / 2));
          expect(d).toBeLessThanOrEqual(exp);
        },
      ),
    );
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("Mon, 31 Dec 2029 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("parses success_statuses", () => {
    expect(parseStatuses("200, 202,204")).toEqual([200, 202, 204]);
  });
});

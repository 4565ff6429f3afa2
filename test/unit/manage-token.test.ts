import { describe, expect, it } from "vitest";
import { linkOpens, manageExpiry } from "../../src/bookings/manage-link";
import {
  base64url,
  customerTag,
  signLegacyManageToken,
  signManageToken,
  verifyManageToken,
} from "../../src/bookings/manage-token";

const SECRET = "unit-test-manage-secret";
const MIN = 60_000;
const DAY = 86_400_000;
const ids = {
  bookingId: "0b6f1c1e-6b1d-4c3a-9a51-2f7c1d9e8a10",
  workspaceId: "7d2c9f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
};
const customerId = "3c9e2a1f-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const startAt = Date.parse("2030-03-04T10:00:00Z");
const booking = { customerId, startAt, endAt: startAt + 45 * MIN };
const claims = { ...ids, customerId };
const now = Date.parse("2030-03-01T08:00:00Z");

const decode = (token: string) =>
  Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

describe("manage tokens (HMAC-SHA256, base64url)", () => {
  it("round-trips booking, workspace and the customer's tag in 71 URL-safe characters", () => {
    const token = signManageToken(SECRET, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(verifyManageToken(SECRET, token)).toEqual({
      ...ids,
      bound: { customerTag: customerTag(customerId) },
    });
  });

  it("is refused under another secret", () => {
    const token = signManageToken(SECRET, claims);
    expect(verifyManageToken("another-secret-entirely", token)).toBeNull();
  });

  it("refuses every single-character change anywhere in the token", () => {
    const token = signManageToken(SECRET, claims);
    for (let i = 0; i < token.length; i++) {
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(verifyManageToken(SECRET, changed), `position ${i}`).toBeNull();
    }
  });

  it("refuses a payload of another version (a forged version byte keeps the old MAC)", () => {
    const token = signManageToken(SECRET, claims);
    const bytes = decode(token);
    for (const version of [0, 1, 2, 4, 255]) {
      bytes[0] = version;
      expect(verifyManageToken(SECRET, base64url(bytes))).toBeNull();
    }
  });

  it("refuses anything that is not 53 bytes of canonical base64url", () => {
    for (const bad of ["", "A", "A".repeat(70), "A".repeat(72), "*".repeat(71), "A=".repeat(35)]) {
      expect(verifyManageToken(SECRET, bad)).toBeNull();
    }
  });

  it("names bookings by uuid only", () => {
    expect(() => signManageToken(SECRET, { ...claims, bookingId: "b-1" })).toThrow(/uuid/);
  });

  it("still verifies the layouts issued before (an expiry, a start), whatever their bound", () => {
    for (const version of [1, 2] as const)
      for (const seconds of [0, 1, Math.floor(startAt / 1000), 0xffff_ffff]) {
        const token = signLegacyManageToken(SECRET, version, { ...ids, seconds });
        expect(verifyManageToken(SECRET, token)).toEqual({ ...ids, bound: { legacy: true } });
      }
  });
});

describe("whether a link opens the booking as it now is", () => {
  const verified = (token: string) => {
    const found = verifyManageToken(SECRET, token);
    if (!found) throw new Error("not verified");
    return found;
  };
  const link = verified(signManageToken(SECRET, claims));

  it("opens its customer's booking until a day after its current end", () => {
    expect(linkOpens(link, booking, now)).toBe(true);
    expect(linkOpens(link, booking, booking.endAt + DAY - 1)).toBe(true);
    expect(linkOpens(link, booking, booking.endAt + DAY)).toBe(false);
  });

  it("still opens it once it moved, later or earlier: the expiry follows the new end", () => {
    for (const shift of [15 * MIN, -15 * MIN, DAY, -DAY, 30 * DAY, 1000]) {
      const moved = { ...booking, startAt: startAt + shift, endAt: booking.endAt + shift };
      expect(linkOpens(link, moved, now), `shift ${shift}`).toBe(true);
      expect(linkOpens(link, moved, moved.endAt + DAY - 1), `shift ${shift}`).toBe(true);
      expect(linkOpens(link, moved, moved.endAt + DAY), `shift ${shift}`).toBe(false);
    }
  });

  it("no longer opens a booking that is now another customer's", () => {
    const handedOver = { ...booking, customerId: "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a" };
    expect(linkOpens(link, handedOver, now)).toBe(false);
    const theirs = verified(signManageToken(SECRET, { ...ids, customerId: handedOver.customerId }));
    expect(linkOpens(theirs, handedOver, now)).toBe(true);
    expect(linkOpens(theirs, booking, now)).toBe(false);
  });

  it("opens with a token of an earlier layout until a day after the current end, moved or not", () => {
    for (const version of [1, 2] as const) {
      const legacy = verified(
        signLegacyManageToken(SECRET, version, {
          ...ids,
          seconds: Math.ceil(manageExpiry(booking.endAt) / 1000),
        }),
      );
      const moved = { ...booking, startAt: startAt + 3 * DAY, endAt: booking.endAt + 3 * DAY };
      expect(linkOpens(legacy, booking, now)).toBe(true);
      expect(linkOpens(legacy, moved, booking.endAt + 2 * DAY)).toBe(true);
      expect(linkOpens(legacy, moved, moved.endAt + DAY)).toBe(false);
    }
  });
});

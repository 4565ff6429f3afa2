import { describe, expect, it } from "vitest";
import { linkOpens, manageExpiry } from "../../src/lib/manage-link";
import {
  base64url,
  signExpiryManageToken,
  signManageToken,
  verifyManageToken,
} from "../../src/lib/manage-token";

const SECRET = "unit-test-manage-secret";
const MIN = 60_000;
const DAY = 86_400_000;
const ids = {
  bookingId: "0b6f1c1e-6b1d-4c3a-9a51-2f7c1d9e8a10",
  workspaceId: "7d2c9f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
};
const startAt = Date.parse("2030-03-04T10:00:00Z");
const booking = { startAt, endAt: startAt + 45 * MIN };
const claims = { ...ids, startAt };
const now = Date.parse("2030-03-01T08:00:00Z");

const decode = (token: string) =>
  Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

describe("manage tokens (HMAC-SHA256, base64url)", () => {
  it("round-trips booking, workspace and the booking's start in 71 URL-safe characters", () => {
    const token = signManageToken(SECRET, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(verifyManageToken(SECRET, token, now)).toEqual({ ...ids, bound: { startAt } });
  });

  it("is refused under another secret", () => {
    const token = signManageToken(SECRET, claims);
    expect(verifyManageToken("another-secret-entirely", token, now)).toBeNull();
  });

  it("refuses every single-character change anywhere in the token", () => {
    const token = signManageToken(SECRET, claims);
    for (let i = 0; i < token.length; i++) {
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(verifyManageToken(SECRET, changed, now), `position ${i}`).toBeNull();
    }
  });

  it("refuses a payload of another version (a forged version byte keeps the old MAC)", () => {
    const token = signManageToken(SECRET, claims);
    const bytes = decode(token);
    for (const version of [1, 3]) {
      bytes[0] = version;
      expect(verifyManageToken(SECRET, base64url(bytes), now)).toBeNull();
    }
  });

  it("refuses anything that is not 53 bytes of canonical base64url", () => {
    for (const bad of ["", "A", "A".repeat(70), "A".repeat(72), "*".repeat(71), "A=".repeat(35)]) {
      expect(verifyManageToken(SECRET, bad, now)).toBeNull();
    }
  });

  it("names bookings by uuid only", () => {
    expect(() => signManageToken(SECRET, { ...claims, bookingId: "b-1" })).toThrow(/uuid/);
  });

  it("still verifies a first-layout token (an expiry) until that expiry", () => {
    const expiresAt = manageExpiry(booking.endAt);
    const token = signExpiryManageToken(SECRET, { ...ids, expiresAt });
    expect(verifyManageToken(SECRET, token, now)).toEqual({ ...ids, bound: { expiresAt } });
    expect(verifyManageToken(SECRET, token, expiresAt)).toBeNull();
  });
});

describe("whether a link opens the booking as it now is", () => {
  const verified = (token: string) => {
    const found = verifyManageToken(SECRET, token, now);
    if (!found) throw new Error("not verified");
    return found;
  };
  const link = verified(signManageToken(SECRET, claims));

  it("opens the booking at the start it was issued for, until a day after its current end", () => {
    expect(linkOpens(link, booking, now)).toBe(true);
    expect(linkOpens(link, booking, booking.endAt + DAY - 1)).toBe(true);
    expect(linkOpens(link, booking, booking.endAt + DAY)).toBe(false);
  });

  it("no longer opens it once it moved, later or earlier", () => {
    for (const shift of [15 * MIN, -15 * MIN, DAY, -DAY, 1000]) {
      const moved = { startAt: startAt + shift, endAt: booking.endAt + shift };
      expect(linkOpens(link, moved, now), `shift ${shift}`).toBe(false);
      const fresh = verified(signManageToken(SECRET, { ...ids, startAt: moved.startAt }));
      expect(linkOpens(fresh, moved, now)).toBe(true);
      // The new link's expiry follows the current end.
      expect(linkOpens(fresh, moved, moved.endAt + DAY - 1)).toBe(true);
      expect(linkOpens(fresh, moved, moved.endAt + DAY)).toBe(false);
    }
  });

  it("follows the current end when only the end changed (a service replaced)", () => {
    const longer = { startAt, endAt: booking.endAt + 2 * DAY };
    expect(linkOpens(link, longer, booking.endAt + 2 * DAY)).toBe(true);
    const shorter = { startAt, endAt: startAt + 15 * MIN };
    expect(linkOpens(link, shorter, shorter.endAt + DAY)).toBe(false);
  });

  it("opens with a first-layout token only while its expiry is the current end's", () => {
    const legacy = (endAt: number) =>
      verified(signExpiryManageToken(SECRET, { ...ids, expiresAt: manageExpiry(endAt) }));
    expect(linkOpens(legacy(booking.endAt), booking, now)).toBe(true);
    const moved = { startAt: startAt + 30 * MIN, endAt: booking.endAt + 30 * MIN };
    expect(linkOpens(legacy(booking.endAt), moved, now)).toBe(false);
  });
});

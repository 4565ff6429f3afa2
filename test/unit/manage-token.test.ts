import { describe, expect, it } from "vitest";
import { base64url, signManageToken, verifyManageToken } from "../../src/lib/manage-token";

const SECRET = "unit-test-manage-secret";
const claims = {
  bookingId: "0b6f1c1e-6b1d-4c3a-9a51-2f7c1d9e8a10",
  workspaceId: "7d2c9f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  expiresAt: Date.parse("2030-03-05T10:00:00Z"),
};
const before = claims.expiresAt - 1;

const decode = (token: string) =>
  Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

describe("manage tokens (HMAC-SHA256, base64url)", () => {
  it("round-trips booking, workspace and expiry in 71 URL-safe characters", async () => {
    const token = await signManageToken(SECRET, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(await verifyManageToken(SECRET, token, before)).toEqual(claims);
  });

  it("rounds the expiry up to a whole second", async () => {
    const token = await signManageToken(SECRET, { ...claims, expiresAt: claims.expiresAt - 400 });
    expect((await verifyManageToken(SECRET, token, before))?.expiresAt).toBe(claims.expiresAt);
  });

  it("is refused from its expiry on, and under another secret", async () => {
    const token = await signManageToken(SECRET, claims);
    expect(await verifyManageToken(SECRET, token, claims.expiresAt)).toBeNull();
    expect(await verifyManageToken("another-secret-entirely", token, before)).toBeNull();
  });

  it("refuses every single-character change anywhere in the token", async () => {
    const token = await signManageToken(SECRET, claims);
    for (let i = 0; i < token.length; i++) {
      const changed = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(await verifyManageToken(SECRET, changed, before), `position ${i}`).toBeNull();
    }
  });

  it("refuses a payload of another version even when correctly signed", async () => {
    const token = await signManageToken(SECRET, claims);
    const bytes = decode(token);
    bytes[0] = 2;
    // Re-signing needs the key: a forged version byte keeps the old MAC and fails on it.
    expect(await verifyManageToken(SECRET, base64url(bytes), before)).toBeNull();
  });

  it("refuses anything that is not 53 bytes of canonical base64url", async () => {
    for (const bad of ["", "A", "A".repeat(70), "A".repeat(72), "*".repeat(71), "A=".repeat(35)]) {
      expect(await verifyManageToken(SECRET, bad, before)).toBeNull();
    }
  });

  it("names bookings by uuid only", () => {
    expect(() => signManageToken(SECRET, { ...claims, bookingId: "b-1" })).toThrow(/uuid/);
  });
});

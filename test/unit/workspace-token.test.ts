import { describe, expect, it } from "vitest";
import { workspaceOfToken, workspaceToken } from "../../src/platform/workspace-token";
import { icalLinkToken, parseIcalLinkToken } from "../../src/bookings/ical-token";

const WS = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b";

describe("workspace tokens (feed and offer links)", () => {
  it("name their workspace, are 64 URL-safe characters and differ every time", () => {
    const a = workspaceToken(WS.toUpperCase());
    const b = workspaceToken(WS);
    expect(a).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(a).not.toBe(b);
    expect(workspaceOfToken(a)).toBe(WS);
    expect(workspaceOfToken(b)).toBe(WS);
    // The random part is the last 43 characters' worth: two tokens share only the workspace.
    expect(a.slice(0, 21)).toBe(b.slice(0, 21));
    expect(a.slice(22)).not.toBe(b.slice(22));
  });

  it("anything else names no workspace", () => {
    const token = workspaceToken(WS);
    for (const text of [
      "",
      token.slice(1),
      `${token}A`,
      `${token.slice(0, 63)}=`,
      "x".repeat(43),
    ]) {
      expect(workspaceOfToken(text)).toBeNull();
    }
    expect(() => workspaceToken("not-a-uuid")).toThrow();
  });
});

describe("a booking's ical link token", () => {
  it("is the workspace's 32 hex digits, then the booking's token", () => {
    const token = icalLinkToken(WS, "ab".repeat(16));
    expect(token).toBe(`${WS.replaceAll("-", "")}${"ab".repeat(16)}`);
    expect(parseIcalLinkToken(token)).toEqual({ workspaceId: WS, icalToken: "ab".repeat(16) });
    expect(parseIcalLinkToken("ab".repeat(16))).toBeNull();
    expect(parseIcalLinkToken(`${WS.replaceAll("-", "")}zz`)).toBeNull();
  });
});

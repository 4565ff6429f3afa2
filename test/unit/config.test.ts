import { describe, expect, it, vi } from "vitest";
import { configOf, sameSettings, settingsAtEntry, type Settings } from "../../src/platform/config";
import { deliveryConfigOf } from "../../src/messages/delivery/providers/config";

const env = (vars: Settings): Settings => ({ ...vars });

describe("configOf (Worker settings parsed once with zod)", () => {
  it("says loudly, once per environment, that CUSTOMER_ID_SECRET is missing", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const missing = env({});
      configOf(missing);
      configOf(missing);
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0]?.[0])).toMatch(/CUSTOMER_ID_SECRET is not set/);
      errors.mockClear();
      configOf(env({ CUSTOMER_ID_SECRET: "a-customer-id-secret" }));
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("a request's copy of the env reads its original's settings: no parse or warning per request", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const original = env({ ADMIN_TOKEN: "secret" });
      const first = configOf(original);
      for (let i = 0; i < 3; i++) {
        const copy = sameSettings(original, { ...original, ADMIN_TOKEN: "changed" });
        expect(configOf(copy)).toBe(first);
      }
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });

  it("reads the settings and their defaults", () => {
    // toMatchObject: each setting's own test names the fields it adds.
    expect(configOf(env({}))).toMatchObject({
      adminToken: null,
      manageTokenSecret: null,
      allowPrivateWebhooks: false,
      webhookRetryBaseSeconds: 30,
      externalCalendarTimeoutMs: 10_000,
      publicOrigin: "http://localhost:8787",
    });
    expect(
      configOf(
        env({
          ADMIN_TOKEN: "secret",
          ALLOW_PRIVATE_WEBHOOKS: "true",
          WEBHOOK_RETRY_BASE_SECONDS: "0",
          EXTERNAL_CALENDAR_TIMEOUT_MS: "1500",
        }),
      ),
    ).toMatchObject({
      adminToken: "secret",
      manageTokenSecret: null,
      allowPrivateWebhooks: true,
      webhookRetryBaseSeconds: 0,
      externalCalendarTimeoutMs: 1500,
    });
  });

  it("builds links on PUBLIC_ORIGIN: an origin, normalised; anything else fails loudly", () => {
    expect(configOf(env({ PUBLIC_ORIGIN: "https://Book.Salon.example/" })).publicOrigin).toBe(
      "https://book.salon.example",
    );
    expect(configOf(env({ PUBLIC_ORIGIN: "" })).publicOrigin).toBe("http://localhost:8787");
    for (const bad of ["book.salon.example", "https://x.example/path", "ftp://x.example"])
      expect(() => configOf(env({ PUBLIC_ORIGIN: bad })), bad).toThrow(/PUBLIC_ORIGIN/);
  });

  it("never lets an external calendar's fetch take longer than 10 s", () => {
    expect(() => configOf(env({ EXTERNAL_CALENDAR_TIMEOUT_MS: "10001" }))).toThrow(
      /EXTERNAL_CALENDAR_TIMEOUT_MS/,
    );
  });

  it("treats an empty admin token as none (nobody gets in)", () => {
    expect(configOf(env({ ADMIN_TOKEN: "" })).adminToken).toBeNull();
  });

  it("treats an empty manage token secret as none, and refuses one shorter than 16 characters", () => {
    expect(configOf(env({ MANAGE_TOKEN_SECRET: "" })).manageTokenSecret).toBeNull();
    expect(configOf(env({ MANAGE_TOKEN_SECRET: "x".repeat(16) })).manageTokenSecret).toBe(
      "x".repeat(16),
    );
    expect(() => configOf(env({ MANAGE_TOKEN_SECRET: "short" }))).toThrow(/16 characters/);
  });

  it("parses an environment once", () => {
    const e = env({ WEBHOOK_RETRY_BASE_SECONDS: "5" });
    expect(configOf(e)).toBe(configOf(e));
  });

  it.each([
    ["ALLOW_PRIVATE_WEBHOOKS", "yes"],
    ["WEBHOOK_RETRY_BASE_SECONDS", "soon"],
    ["WEBHOOK_RETRY_BASE_SECONDS", "-1"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => configOf(env({ [name]: value }))).toThrow(/Invalid Worker configuration/);
  });

  it("at the entry: a malformed deployment is logged once, naming every bad setting, and gets no settings", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const bad = env({
        CUSTOMER_ID_SECRET: "a-customer-id-secret",
        PUBLIC_ORIGIN: "book.salon.example",
        RESEND_BASE_URL: "not a url",
      });
      expect(settingsAtEntry(bad)).toBeNull();
      expect(settingsAtEntry(bad)).toBeNull();
      expect(() => configOf(bad)).toThrow(/Invalid Worker configuration/);
      expect(errors).toHaveBeenCalledTimes(1);
      const line = String(errors.mock.calls[0]?.[0]);
      expect(line).toMatch(/Invalid Worker configuration/);
      expect(line).toMatch(/PUBLIC_ORIGIN/);
      expect(line).toMatch(/RESEND_BASE_URL/);
    } finally {
      errors.mockRestore();
    }
  });

  it("is one parse for every module: message delivery reads its slice of the same value", () => {
    const e = env({ CUSTOMER_ID_SECRET: "a-customer-id-secret", RESEND_API_KEY: "re_x" });
    expect(settingsAtEntry(e)).toBe(configOf(e));
    expect(deliveryConfigOf(e)).toBe(configOf(e).delivery);
    expect(deliveryConfigOf(e).email?.apiKey).toBe("re_x");
  });
});

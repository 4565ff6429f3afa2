import { describe, expect, it, vi } from "vitest";
import { configOf, settingsAtEntry } from "../../src/platform/config";

const account = JSON.stringify({
  type: "service_account",
  client_email: "rtu@example.iam.gserviceaccount.com",
  private_key: "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n",
  token_uri: "https://oauth2.googleapis.com/token",
});
const base = { CUSTOMER_ID_SECRET: "a-customer-id-secret" };

describe("Reserve with Google's real-time update settings", () => {
  it("are on with a partner id and a service account key, Google's API the default base", () => {
    expect(
      configOf({ ...base, RWG_PARTNER_ID: "20001", RWG_SERVICE_ACCOUNT_JSON: account }).rwgNotify,
    ).toEqual({
      baseUrl: "https://mapsbooking.googleapis.com",
      partnerId: "20001",
      account: {
        clientEmail: "rtu@example.iam.gserviceaccount.com",
        privateKey: "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n",
        tokenUri: "https://oauth2.googleapis.com/token",
      },
    });
    expect(configOf({ ...base }).rwgRetryBaseSeconds).toBe(30);
  });

  it("are off without the key; without the platform's partner id only salons with their own are told", () => {
    expect(configOf({ ...base, RWG_SERVICE_ACCOUNT_JSON: account }).rwgNotify).toMatchObject({
      partnerId: null,
    });
    expect(configOf({ ...base, RWG_PARTNER_ID: "20001" }).rwgNotify).toBeNull();
    expect(
      configOf({ ...base, RWG_PARTNER_ID: "20001", RWG_SERVICE_ACCOUNT_JSON: " " }).rwgNotify,
    ).toBeNull();
  });

  it("refuse a key that is not a service account's JSON (the entry logs it)", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect(
        settingsAtEntry({ ...base, RWG_PARTNER_ID: "1", RWG_SERVICE_ACCOUNT_JSON: "{not json" }),
      ).toBeNull();
      expect(String(errors.mock.calls[0]?.[0])).toMatch(/RWG_SERVICE_ACCOUNT_JSON/);
    } finally {
      errors.mockRestore();
    }
  });
});

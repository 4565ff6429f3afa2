import { generateKeyPairSync } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { MAPS_BOOKING_SCOPE, tokenRequest } from "../../tools/google-local/token";
import { checkAvailabilityReplace, checkBookingPatch } from "../../tools/google-local/validate";

// google-local's own checks: a receiver that took anything would prove nothing in the RTU tests.

const path = { partnerId: "20001", bookingId: "b-1" };
const valid = {
  name: "partners/20001/bookings/b-1",
  merchantId: "m",
  serviceId: "s",
  startTime: "2030-03-05T09:00:00Z",
  duration: "2700s",
  status: "CANCELED",
};

describe("google-local's booking notification check", () => {
  it("takes a documented request", () => {
    expect(checkBookingPatch(path, "status", valid)).toEqual([]);
    expect(checkBookingPatch(path, "startTime,duration", valid)).toEqual([]);
  });

  it("refuses no updateMask, a name other than the path's, snake_case names and bad times", () => {
    expect(checkBookingPatch(path, null, valid).join()).toContain("updateMask is required");
    expect(
      checkBookingPatch(path, "status", { ...valid, name: "partners/1/bookings/b-1" }),
    ).toHaveLength(1);
    const { merchantId, ...rest } = valid;
    expect(
      checkBookingPatch(path, "status", { ...rest, merchant_id: merchantId }).join(),
    ).toContain('Unknown name "merchant_id"');
    expect(
      checkBookingPatch(path, "startTime", { ...valid, startTime: "1900000000" }),
    ).toHaveLength(1);
    expect(checkBookingPatch(path, "duration", { ...valid, duration: 2700 })).toHaveLength(1);
    expect(checkBookingPatch(path, "status", { ...valid, status: "CANCELLED" })).toHaveLength(1);
  });
});

describe("google-local's availability replace check", () => {
  const entry = {
    merchantId: "m",
    serviceId: "s",
    startTimeRestrict: "2030-03-04T23:00:00Z",
    endTimeRestrict: "2030-03-05T23:00:00Z",
    availability: [
      { startTime: "2030-03-05T09:00:00Z", duration: "2700s", spotsTotal: "3", spotsOpen: "2" },
    ],
  };

  it("takes a documented request, an empty availability list included", () => {
    expect(checkAvailabilityReplace({ extendedServiceAvailability: [entry] })).toEqual([]);
    expect(
      checkAvailabilityReplace({ extendedServiceAvailability: [{ ...entry, availability: [] }] }),
    ).toEqual([]);
  });

  it("refuses more spots open than total, a start outside the window and a missing service", () => {
    const slot = entry.availability[0];
    const with_ = (a: object) => ({
      extendedServiceAvailability: [{ ...entry, availability: [{ ...slot, ...a }] }],
    });
    expect(checkAvailabilityReplace(with_({ spotsOpen: "4" }))).toHaveLength(1);
    expect(checkAvailabilityReplace(with_({ startTime: "2030-03-06T09:00:00Z" }))).toHaveLength(1);
    expect(
      checkAvailabilityReplace({ extendedServiceAvailability: [{ ...entry, serviceId: "" }] }),
    ).toHaveLength(1);
    expect(checkAvailabilityReplace({ extendedServiceAvailability: [] })).toHaveLength(1);
  });
});

describe("google-local's token endpoint", () => {
  const pair = () =>
    generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
  const audience = "http://127.0.0.1:1/token";
  const assertion = async (privateKey: string, scope = MAPS_BOOKING_SCOPE) =>
    new SignJWT({ scope })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer("rtu@example.iam.gserviceaccount.com")
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(await importPKCS8(privateKey, "RS256"));
  const form = (a: string, grant = "urn:ietf:params:oauth:grant-type:jwt-bearer") =>
    new URLSearchParams({ grant_type: grant, assertion: a });

  it("issues a token for an assertion the configured key signed, and refuses any other", async () => {
    const ours = pair();
    const theirs = pair();
    const issued = new Set<string>();
    const expected = { publicKeyPem: ours.publicKey, audience };
    const ok = await tokenRequest(form(await assertion(ours.privateKey)), expected, issued);
    expect(ok.status).toBe(200);
    expect(issued.has(ok.body.access_token as string)).toBe(true);

    const forged = await tokenRequest(form(await assertion(theirs.privateKey)), expected, issued);
    expect(forged).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const scoped = await tokenRequest(
      form(await assertion(ours.privateKey, "email")),
      expected,
      issued,
    );
    expect(scoped).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
    const grant = await tokenRequest(
      form(await assertion(ours.privateKey), "password"),
      expected,
      issued,
    );
    expect(grant).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
  });
});

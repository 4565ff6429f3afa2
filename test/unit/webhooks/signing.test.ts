import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook } from "../../../src/webhooks/rules/signing";

describe("Standard Webhooks signing", () => {
  it("matches the specification's published example", async () => {
    // The example of the Standard Webhooks specification's reference libraries.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const body = '{"test": 2432232314}';
    const signed = await signWebhook([secret], id, 1614265330, body);
    expect(signed["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("agrees with node:crypto for random secrets and signs with every secret given", async () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const signed = await signWebhook([a, b], "evt_1", 1700000000, "{}");
    const expect1 = (s: string) =>
      `v1,${createHmac("sha256", Buffer.from(s.slice(6), "base64"))
        .update("evt_1.1700000000.{}")
        .digest("base64")}`;
    expect(signed["webhook-signature"]).toBe(`${expect1(a)} ${expect1(b)}`);
    expect(signed["webhook-id"]).toBe("evt_1");
    expect(signed["webhook-timestamp"]).toBe("1700000000");
  });
});

import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/app";
import type { OpenEnv } from "../../src/http/env";
import { parseApiKeyId } from "../../src/tenancy/api-keys";
import { log } from "../../src/platform/log";
import { failingD1 } from "../helpers/db";
import { fakeLimiter } from "../helpers/limiter";
import { PUBLIC } from "../helpers/http";
import { consume, delivery } from "../helpers/queue";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Logs never carry request or webhook secrets, API keys, tokens or SQL
 * parameters: every console line written while a battery of requests runs
 * (rate limits, refused keys, webhook create/update/rotate and deliveries, D1
 * failures) is searched for each secret value the requests used.
 */

const RECEIVER = "https://receiver.example.com";
const lines: string[] = [];
const receiverToken = `Bearer rcv-${crypto.randomUUID()}`;
const parameterSecret = `prm-${crypto.randomUUID()}`;
const signingSecrets: string[] = [];
/** Other secret values the requests used (the wrong key). */
const secrets: string[] = [];
/** Tokens of keyless links (manage, offer, feed) the requests and lines carried. */
const linkTokens: string[] = [];
let salon: Salon;
let webhookId = 0;

beforeAll(async () => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === "string" ? a : safeString(a))).join(" "));
    });
  }
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RECEIVER)) return real(input, init);
    // A receiver that fails and echoes what it got: nothing of it may reach a log either.
    return new Response(`denied ${request.headers.get("authorization")}`, { status: 500 });
  });
  salon = await createSalon(1);
  const hook = await salon.ws.api("/webhooks", {
    method: "POST",
    body: {
      url: `${RECEIVER}/hook`,
      events: ["booking-created"],
      headers: [{ name: "Authorization", value: receiverToken }],
      parameters: [{ name: "token", value: parameterSecret }],
      tries: 1,
    },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  webhookId = hook.body.id;
  signingSecrets.push(hook.body.secret);
});

afterAll(() => {
  vi.restoreAllMocks();
});

function safeString(value: unknown): string {
  if (value instanceof Error) return `${value.stack ?? value.message} ${String(value.cause)}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** The Worker app in process, with the bindings given (as test/integration/rate-limit.test.ts). */
function appWith(bindings: Partial<OpenEnv["Bindings"]>) {
  const app = createApp();
  return (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    app.request(
      `${PUBLIC}${path}`,
      {
        method: init.method ?? "GET",
        headers: {
          authorization: `Bearer ${init.key ?? salon.ws.apiKey}`,
          workspace: salon.ws.id,
          "content-type": "application/json",
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      },
      { ...env, ...bindings },
    );
}

const webhookBody = (secret: string) => ({
  url: `${RECEIVER}/other`,
  events: ["booking-created"],
  headers: [{ name: "Authorization", value: receiverToken }],
  parameters: [{ name: "token", value: secret }],
});

describe("no secret in any log line", () => {
  it("a rate-limited key's webhook writes", async () => {
    const perKey = fakeLimiter(1);
    const call = appWith({ API_RATE_LIMIT: perKey.limiter });
    // The first call passes (and makes the workspace known, so the next checks run alongside).
    expect((await call("/webhooks")).status).toBe(200);
    const limited = await Promise.all([
      call(`/webhooks/${webhookId}/rotate-secret`, { method: "POST" }),
      call(`/webhooks/${webhookId}`, { method: "PATCH", body: webhookBody(parameterSecret) }),
      call("/webhooks", { method: "POST", body: webhookBody(parameterSecret) }),
    ]);
    expect(limited.map((r) => r.status)).toEqual([429, 429, 429]);
  });

  it("a refused key (right id, wrong secret) writing a webhook and a booking", async () => {
    const id = parseApiKeyId(salon.ws.apiKey);
    const wrong = `sk_${id}_${"x".repeat(43)}`;
    const call = appWith({});
    expect((await call("/webhooks")).status).toBe(200);
    const refused = await Promise.all([
      call("/webhooks", { method: "POST", body: webhookBody(parameterSecret), key: wrong }),
      call(`/webhooks/${webhookId}/rotate-secret`, { method: "POST", key: wrong }),
      call("/bookings", {
        method: "POST",
        key: wrong,
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          reserved_on: at("12:00"),
          ...customer(),
        },
      }),
    ]);
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
    secrets.push(wrong);
  });

  it("a rotation, a booking and its failed delivery", async () => {
    const rotated = await salon.ws.api(`/webhooks/${webhookId}/rotate-secret`, { method: "POST" });
    expect(rotated.status).toBe(200);
    signingSecrets.push(rotated.body.secret);
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    await vi.waitFor(
      async () => {
        const log = await salon.ws.api(`/webhooks/${webhookId}/deliveries`);
        expect(log.body.data.length).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 100 },
    );
    // The same try driven by hand, so its lines are certainly in before the search: with one
    // try allowed, it is given up (dead-lettered) and acknowledged.
    const row = await everyShard
      .prepare(
        "select id from events where workspace_id = ? and json_extract(payload, '$.uuid') = ?",
      )
      .bind(salon.ws.id, booked.body.uuid)
      .first<{ id: string }>();
    if (!row) throw new Error("no event");
    expect(
      await consume([{ id: "by-hand", body: delivery(row.id, webhookId), attempts: 1 }]),
    ).toMatchObject({ explicitAcks: ["by-hand"], retryMessages: [] });
  });

  it("D1 failing under the key check and under a handler (a logged 500)", async () => {
    const failing = failingD1();
    const call = appWith({ DB: failing });
    const res = await call("/webhooks", { method: "POST", body: webhookBody(parameterSecret) });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { request_id: string };
    // The 500 is logged (the test is not vacuous), with the request id to find it by.
    expect(lines.some((l) => l.includes(body.request_id))).toBe(true);
  });

  it("a keyless link's token in a 500's path (feed, offer, manage link)", async () => {
    const call = appWith({ DB: failingD1() });
    const feed = `feed_${crypto.randomUUID().replaceAll("-", "")}${"A".repeat(32)}`;
    linkTokens.push(feed);
    const res = await call(`/feeds/${feed}.ics`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { request_id: string };
    // Logged with its method and path, the token cut out of it.
    const line = lines.find((l) => l.includes(body.request_id)) ?? "";
    expect(line).toContain('"path":"/api/public/v2/feeds/[redacted]"');
    // Manage and offer tokens, in a path and in a widget page's query string, as a line may carry them.
    const manage = `AwEC${crypto.randomUUID().replaceAll("-", "")}_-x`;
    const offer = `AwED${crypto.randomUUID().replaceAll("-", "")}_-y`;
    linkTokens.push(manage, offer);
    log("error", "probe", {
      path: `/api/public/v2/manage/${manage}/reschedule`,
      offer: `/api/public/v2/waitlist-offers/${offer}/book`,
      link: `https://salon.example/widget/manage?token=${manage}&lang=de`,
      error: new Error(`GET /api/public/v2/manage/${manage} failed`),
    });
    const probe = lines.find((l) => l.includes('"probe"')) ?? "";
    expect(probe).toContain("/manage/[redacted]/reschedule");
    expect(probe).toContain("?token=[redacted]&lang=de");
    expect(probe).toContain("/waitlist-offers/[redacted]/book");
    expect(probe).not.toContain(manage);
    expect(probe).not.toContain(offer);
  });

  it("none of it logged a key, a token, a secret or a SQL parameter", () => {
    const keyId = parseApiKeyId(salon.ws.apiKey) ?? "no key id";
    const forbidden = [
      salon.ws.apiKey,
      keyId,
      receiverToken,
      receiverToken.replace("Bearer ", ""),
      parameterSecret,
      ...signingSecrets,
      ...signingSecrets.map((s) => s.replace("whsec_", "")),
      ...secrets,
      ...linkTokens,
    ];
    expect(signingSecrets).toHaveLength(2);
    const leaks = lines.flatMap((line) =>
      forbidden.filter((secret) => line.includes(secret)).map((secret) => ({ secret, line })),
    );
    expect(leaks).toEqual([]);
    expect(lines.filter((l) => /params:|\bparams\b/.test(l))).toEqual([]);
  });
});

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app/app";
import type { OpenEnv } from "../../src/http/env";
import { PUBLIC, type Received, send } from "../helpers/http";
import { fakeLimiter, roomInWindow } from "../helpers/limiter";
import { createMessagingSalon, listedMessages, tokenIn } from "../helpers/messages";
import { at, type Salon } from "../helpers/salon";
import {
  joined,
  offered,
  offerMessages,
  offerTokenIn,
  plusDays,
  WAIT_DAY,
} from "../helpers/waitlist";

/**
 * Keyless routes (manage links, waitlist offer links) are limited per link
 * and per workspace, not only per client address: a stranger rotating /64s
 * gets no more out of one link than the per-link bound. The pool's
 * LINK_RATE_LIMIT is 60 calls a minute (vitest.config.ts).
 */
vi.setConfig({ testTimeout: 60_000 });

const PER_LINK = 60;
let salon: Salon;
let other: Salon;

beforeAll(async () => {
  ({ salon } = await createMessagingSalon(1));
  ({ salon: other } = await createMessagingSalon(1));
});

let n = 0;
/** A /64 of its own per call. */
const address = () => `2001:db8:77:${(++n).toString(16)}::1`;

let day = 0;
async function bookWithLink(s: Salon) {
  const date = plusDays("2031-03-03", 7 * day++);
  const res = await s.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: s.location.uuid,
      service_uuid: s.cut.uuid,
      staffer_uuid: s.staffers[0]?.uuid,
      reserved_on: at("09:00", date),
      customer_phone: `+49 151 6${String(++n).padStart(7, "0")}`,
      customer_first_name: "Lena",
      customer_email: `lena${n}@example.com`,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [confirmation] = await listedMessages<{ kind: string; body: string }>(
    s.ws.api,
    res.body.uuid,
  );
  expect(confirmation?.kind).toBe("booking-confirmation");
  return tokenIn(confirmation?.body ?? "");
}

const open = (path: string, ip = address()) =>
  send(`${PUBLIC}/${path}`, { headers: { "cf-connecting-ip": ip } });

describe("one link from rotating addresses", () => {
  it(`a manage link: ${PER_LINK} calls a minute, the next is 429 whatever the address; other links open`, async () => {
    const token = await bookWithLink(salon);
    await roomInWindow(15_000);
    const statuses: number[] = [];
    for (let i = 0; i < PER_LINK; i++) statuses.push((await open(`manage/${token}`)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const search = await open(
      `manage/${token}/time-slots?range_start=2031-03-03&range_end=2031-05-03`,
    );
    expect(search.status).toBe(429);
    expect(search.body).toEqual({
      message: "Too many requests; slow down and retry later.",
      code: "rate_limited",
    });
    expect(search.headers.get("retry-after")).toBe("10");
    expect((await open(`manage/${await bookWithLink(salon)}`)).status).toBe(200);
  });

  it(`an offer link: ${PER_LINK} calls a minute, the next is 429 whatever the address`, async () => {
    const id = await joined(salon, salon.ws.api, { from: WAIT_DAY, to: WAIT_DAY });
    await offered(salon, id);
    const token = offerTokenIn((await offerMessages(id))[0]?.body ?? "");
    await roomInWindow(15_000);
    const statuses: number[] = [];
    for (let i = 0; i < PER_LINK; i++) {
      statuses.push((await open(`waitlist-offers/${token}`)).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await send(`${PUBLIC}/waitlist-offers/${token}/book`, {
      method: "POST",
      body: {},
      headers: { "cf-connecting-ip": address() },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
  });
});

describe("a workspace's links together", () => {
  it("are counted per workspace: past its bound every link of it is 429, another workspace's open", async () => {
    const { limiter, keys } = fakeLimiter(3);
    const app = createApp();
    const call = async (token: string): Promise<Received> => {
      const res = await app.request(
        `${PUBLIC}/manage/${token}`,
        { headers: { "cf-connecting-ip": address() } },
        { ...env, LINK_WORKSPACE_RATE_LIMIT: limiter } satisfies OpenEnv["Bindings"],
      );
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    const tokens = [];
    for (let i = 0; i < 4; i++) tokens.push(await bookWithLink(salon));
    const statuses = [];
    for (const token of tokens) statuses.push((await call(token)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(keys).toEqual(tokens.map(() => `ws:${salon.ws.id}`));
    expect((await call(await bookWithLink(other))).status).toBe(200);
  });
});

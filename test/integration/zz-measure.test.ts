import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createStaffer, createWorkspace, type TestWorkspace, WEEKDAYS_9_TO_18 } from "../helpers/factory";
import { createResource } from "../helpers/resources";
import { customer } from "../helpers/salon";

const MAX = 10;
let ws: TestWorkspace;
let location: { uuid: string };
let staffers: { uuid: string }[] = [];
let plain: { uuid: string }[] = [];
let roomy: { uuid: string }[] = [];
let wash: { uuid: string };
const day = (offset: number) =>
  new Date(Date.parse("2031-03-03T00:00:00Z") + offset * 86_400_000).toISOString().slice(0, 10);

function timing(h: Headers) {
  const t = h.get("server-timing") ?? "";
  const num = (re: RegExp) => Number(re.exec(t)?.[1] ?? NaN);
  return {
    d1: num(/d1;dur=[\d.]+;desc="(\d+) round trips"/),
    statements: num(/d1-statements;desc="(\d+)"/),
    cal: num(/calendar;dur=[\d.]+;desc="(\d+) calls"/),
    calTotal: num(/calendar-total;desc="(\d+) calls"/),
  };
}

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws, { timezone: "Europe/Berlin" });
  for (let i = 0; i < MAX; i++)
    staffers.push(await createStaffer(ws, [location.uuid], { first_name: `S${i}`, schedule: WEEKDAYS_9_TO_18(location.uuid) }));
  const resources = [];
  for (let i = 0; i < MAX; i++) resources.push(await createResource(ws, location.uuid, { name: `R${i}` }));
  for (let i = 0; i < MAX; i++) {
    const p = await ws.api("/services", { method: "POST", body: { name: `P${i}`, duration: 15, price: 1000 } });
    plain.push(p.body);
    const r = await ws.api("/services", { method: "POST", body: { name: `R${i}`, duration: 15, price: 1000, resource_uuids: resources.map((x) => x.uuid) } });
    roomy.push(r.body);
  }
  const many = [];
  for (let i = 0; i < 10; i++) many.push(await createResource(ws, location.uuid, { name: `M${i}`, quantity: 10 }));
  wash = (await ws.api("/services", { method: "POST", body: { name: "Wash", duration: 30, price: 900, resource_uuids: many.map((m) => m.uuid) } })).body;
});

const items = (svc: { uuid: string }[], week: number) =>
  Array.from({ length: MAX }, (_, k) => ({
    datetime_start: `${day(week * 7 + Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
    services: svc.map((s, j) => ({ service_uuid: s.uuid, staffer_uuid: staffers[j]?.uuid })),
  }));

describe("measure", () => {
  it("fanout", async () => {
    const out: Record<string, unknown> = {};
    const cart = await ws.api("/bookings/cart", { method: "POST", body: { location_uuid: location.uuid, items: items(plain, 0), ...customer() } });
    out.cart = [cart.status, timing(cart.headers)];
    const res = await ws.api("/reservations", { method: "POST", body: { location_uuid: location.uuid, items: items(plain, 1) } });
    out.reservation = [res.status, timing(res.headers)];
    const rcart = await ws.api("/bookings/cart", { method: "POST", body: { location_uuid: location.uuid, items: items(roomy, 2), ...customer() } });
    out.resourcesCart = [rcart.status, timing(rcart.headers), JSON.stringify(rcart.body).slice(0, 200)];
    const rres = await ws.api("/reservations", { method: "POST", body: { location_uuid: location.uuid, items: items(roomy, 3) } });
    out.resourcesReservation = [rres.status, timing(rres.headers), JSON.stringify(rres.body).slice(0, 200)];
    const five = await Promise.all(
      Array.from({ length: 5 }, () =>
        ws.api("/reservations", {
          method: "POST",
          body: {
            location_uuid: location.uuid,
            items: [{ datetime_start: `${day(28)}T08:00:00Z`, services: [0, 1, 2, 3].map(() => ({ service_uuid: wash.uuid })) }],
          },
        }),
      ),
    );
    out.five = five.map((r) => [r.status, r.body?.code, timing(r.headers)]);
    console.log("MEASURE", JSON.stringify(out, null, 1));
    expect(1).toBe(1);
  }, 120_000);
});

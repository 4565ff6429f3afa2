import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace } from "../helpers/factory";
import type { Client } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { addresses, createMessagingSalon, fromAddress } from "../helpers/messages";
import type { Salon } from "../helpers/salon";
import { join, joined } from "../helpers/waitlist";

let salon: Salon;
let pk: Client;

beforeAll(async () => {
  ({ salon, pk } = await createMessagingSalon(2));
});

const phones = (() => {
  let n = 0;
  return () => `+49 151 4${String(++n).padStart(7, "0")}`;
})();

describe("bad input is 422 on its field and writes nothing", () => {
  const cases: [string, () => Record<string, unknown>, string][] = [
    ["no service", () => ({ services: [] }), "services"],
    [
      "six services (one past the most)",
      () => ({ services: Array.from({ length: 6 }, () => ({ service_uuid: salon.cut.uuid })) }),
      "services",
    ],
    [
      "an unknown service",
      () => ({ services: [{ service_uuid: crypto.randomUUID() }] }),
      "services.0.service_uuid",
    ],
    [
      "a staffer who does not perform it",
      () => ({ services: [{ service_uuid: salon.cut.uuid, staffer_uuid: crypto.randomUUID() }] }),
      "services.0.staffer_uuid",
    ],
    ["an unknown location", () => ({ location_uuid: crypto.randomUUID() }), "location_uuid"],
    ["a phone that is no number", () => ({ customer_phone: "call me" }), "customer_phone"],
    ["to before from", () => ({ from: "2030-03-05", to: "2030-03-04" }), "to"],
    ["63 days (one past the most)", () => ({ from: "2030-03-01", to: "2030-05-03" }), "to"],
    ["a window already over", () => ({ from: "2020-03-01", to: "2020-03-02" }), "to"],
    ["a date past 2100", () => ({ from: "2101-01-01", to: "2101-01-02" }), "from"],
    [
      "a time window ending before it starts",
      () => ({ times: [{ start: "12:00", end: "11:00" }] }),
      "times.0.end",
    ],
    [
      "a time that is no time",
      () => ({ times: [{ start: "25:00", end: "26:00" }] }),
      "times.0.start",
    ],
    [
      "eight time windows (one past the most)",
      () => ({ times: Array.from({ length: 8 }, () => ({ start: "09:00", end: "10:00" })) }),
      "times",
    ],
    ["no first name", () => ({ customer_first_name: "" }), "customer_first_name"],
    ["an e-mail that is none", () => ({ customer_email: "nope" }), "customer_email"],
  ];
  it.each(cases)("%s", async (_name, fields, field) => {
    const before = await rowCount("waitlist_entries", salon.ws.id);
    const res = await join(salon, salon.ws.api, { customer_phone: phones(), ...fields() });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await rowCount("waitlist_entries", salon.ws.id)).toBe(before);
    expect(await rowCount("waitlist_days", salon.ws.id)).toBeGreaterThanOrEqual(0);
  });

  it("accepts five services and 62 days, the most there are", async () => {
    const res = await join(salon, salon.ws.api, {
      customer_phone: phones(),
      services: Array.from({ length: 5 }, () => ({ service_uuid: salon.cut.uuid })),
      from: "2030-03-01",
      to: "2030-05-02",
      times: Array.from({ length: 7 }, () => ({ start: "09:00", end: "24:00" })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "waiting", from: "2030-03-01", to: "2030-05-02" });
  });
});

describe("caps", () => {
  it("a phone holds at most 3 open entries, in any spelling: the 4th is 409 too_many_entries", async () => {
    const phone = phones();
    for (let i = 0; i < 3; i++) await joined(salon, salon.ws.api, { customer_phone: phone });
    const spelled = phone.replace("+49 ", "0").replace(/ /g, "");
    const fourth = await join(salon, salon.ws.api, { customer_phone: spelled });
    expect(fourth.status, JSON.stringify(fourth.body)).toBe(409);
    expect(fourth.body.code).toBe("too_many_entries");
  });

  it("a phone's entries joined at once: exactly 3 are kept, the rest 409, never a 5xx", async () => {
    const phone = phones();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => join(salon, salon.ws.api, { customer_phone: phone })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it("a publishable key's visitor holds at most 3, whatever phones it types; another address may join", async () => {
    const next = addresses("198.51.100.");
    const one = fromAddress(pk, next());
    for (let i = 0; i < 3; i++) {
      const res = await join(salon, one, { customer_phone: phones() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const fourth = await join(salon, one, { customer_phone: phones() });
    expect(fourth.status).toBe(409);
    expect(fourth.body.code).toBe("too_many_entries");
    const other = await join(salon, fromAddress(pk, next()), { customer_phone: phones() });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
  });

  it("a hostile visitor firing 30 joins at once keeps 3", async () => {
    const one = fromAddress(pk, "198.51.100.200");
    const results = await Promise.all(
      Array.from({ length: 30 }, () => join(salon, one, { customer_phone: phones() })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.every((r) => r.status === 201 || r.status === 409 || r.status === 429)).toBe(
      true,
    );
  });
});

describe("the publishable key's scope", () => {
  it("may join and delete its own entries, but not list, read or delete others'", async () => {
    const mine = await joined(salon, pk, { customer_phone: phones() });
    const staffs = await joined(salon, salon.ws.api, { customer_phone: phones() });
    expect((await pk("/waitlist")).status).toBe(403);
    expect((await pk(`/waitlist/${mine}`)).status).toBe(403);
    const foreign = await pk(`/waitlist/${staffs}`, { method: "DELETE" });
    expect(foreign.status).toBe(404);
    const otherKey = (await createPublishableKey(salon.ws)).api;
    expect((await otherKey(`/waitlist/${mine}`, { method: "DELETE" })).status).toBe(404);
    expect((await pk(`/waitlist/${mine}`, { method: "DELETE" })).status).toBe(204);
    expect((await pk(`/waitlist/${mine}`, { method: "DELETE" })).status).toBe(404);
    expect((await salon.ws.api(`/waitlist/${staffs}`)).body.status).toBe("waiting");
  });

  it("cannot wait for a service the widget does not show", async () => {
    const hidden = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Back office", duration: 30, price: 0, live_in_widget: false },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    const res = await join(salon, pk, {
      customer_phone: phones(),
      services: [{ service_uuid: hidden.body.uuid }],
    });
    expect(res.status).toBe(422);
  });
});

describe("tenancy", () => {
  it("another workspace's key sees none of the entries and deletes none", async () => {
    const id = await joined(salon, salon.ws.api, { customer_phone: phones() });
    const other = await createWorkspace();
    expect((await other.api(`/waitlist/${id}`)).status).toBe(404);
    expect((await other.api(`/waitlist/${id}`, { method: "DELETE" })).status).toBe(404);
    const listed = await other.api("/waitlist");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    // Nor may it join the salon's location with its own key.
    const res = await join(salon, other.api, { customer_phone: phones() });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain("location_uuid");
  });
});

describe("GET /waitlist", () => {
  it("lists oldest first, filtered by status and location, in pages", async () => {
    const first = await joined(salon, salon.ws.api, { customer_phone: phones() });
    const second = await joined(salon, salon.ws.api, { customer_phone: phones() });
    const page = await salon.ws.api(
      `/waitlist?status=waiting&location_uuid=${salon.location.uuid}&per_page=100`,
    );
    expect(page.status).toBe(200);
    const ids = page.body.data.map((e: { uuid: string }) => e.uuid);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(page.body.data.every((e: { status: string }) => e.status === "waiting")).toBe(true);
    const bad = await salon.ws.api("/waitlist?status=sleeping");
    expect(bad.status).toBe(422);
  });
});

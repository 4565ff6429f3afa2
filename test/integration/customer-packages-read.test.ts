import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { everyShard } from "../helpers/every-shard";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import {
  createCustomer,
  createPackageTemplate,
  issueDirect,
  issueOne,
  type TestPackage,
} from "../helpers/packages";
import { periodStart } from "../../src/packages/rules";
import { d1RoundTrips } from "../helpers/http";
import { toIso } from "../../src/platform/clock";

const ORIGIN = { origin: "https://salon.example" };
const DAY = 86_400_000;
let ws: TestWorkspace;
let other: TestWorkspace;
let pk: PublishableKey;
let cut: string;
let colour: string;
let tenCuts: TestPackage;
let monthly: TestPackage;
let anna: string;
let ben: string;

beforeAll(async () => {
  ws = await createWorkspace();
  other = await createWorkspace();
  pk = await createPublishableKey(ws);
  const service = async (name: string) =>
    (await ws.api("/services", { method: "POST", body: { name, duration: 30, price: 3000 } })).body
      .uuid as string;
  cut = await service("Cut");
  colour = await service("Colour");
  tenCuts = await createPackageTemplate(ws, {
    name: "10 cuts",
    price: 25000,
    credits: [
      { service_uuids: [cut], count: 10 },
      { service_uuids: [cut, colour], count: 2 },
    ],
    valid_days: 365,
  });
  monthly = await createPackageTemplate(ws, {
    name: "Monthly",
    price: 5000,
    credits: [{ service_uuids: [colour], count: 4 }],
    valid_days: 31,
    renews: { every: "month" },
  });
  anna = await createCustomer(ws, "+49 151 11111111");
  ben = await createCustomer(ws, "+49 151 22222222");
});

const card = { providerCustomer: "cus_1", paymentMethod: "pm_1" };

describe("GET /customer-packages?customer_uuid=", () => {
  it("lists the customer's packages, oldest first, with their credits and status", async () => {
    const at = Date.now() - 1000;
    const first = await issueOne(ws, {
      packageUuid: tenCuts.uuid,
      customerUuid: anna,
      at,
      price: 20000,
    });
    const [second, third] = await issueDirect(ws, {
      packageUuid: monthly.uuid,
      customerUuid: anna,
      quantity: 2,
      at: at + 1,
      card,
    });
    await issueDirect(ws, { packageUuid: tenCuts.uuid, customerUuid: ben });

    const res = await ws.api(`/customer-packages?customer_uuid=${anna}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The count, the page and its credits in one batch.
    expect(d1RoundTrips(res.headers)).toBe(1);
    expect(res.body.meta.total).toBe(3);
    expect(res.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([
      first,
      ...[second, third].sort(),
    ]);
    expect(res.body.data[0]).toEqual({
      uuid: first,
      package_uuid: tenCuts.uuid,
      customer_uuid: anna,
      order_uuid: expect.any(String),
      name: "10 cuts",
      price: 20000,
      currency: "EUR",
      credits: [
        {
          service_uuids: [cut],
          total: 10,
          used: 0,
          reserved: 0,
          period: 1,
          expires_at: toIso(at + 365 * DAY),
        },
        {
          service_uuids: [cut, colour],
          total: 2,
          used: 0,
          reserved: 0,
          period: 1,
          expires_at: toIso(at + 365 * DAY),
        },
      ],
      expires_at: toIso(at + 365 * DAY),
      status: "active",
      membership: null,
      created_at: toIso(at),
    });
    expect(res.body.data[1].membership).toEqual({
      renews: { every: "month" },
      period: 1,
      current_period_start: toIso(at + 1),
      current_period_end: toIso(periodStart(at + 1, 2)),
      renewing: true,
      past_due: false,
      next_charge_at: toIso(periodStart(at + 1, 2)),
    });

    const page = await ws.api(`/customer-packages?customer_uuid=${anna}&per_page=2&page=2`);
    expect(page.body.data).toHaveLength(1);
    // The page's own credits only (the monthly's one), not the first page's.
    expect(page.body.data[0].credits).toEqual([expect.objectContaining({ total: 4 })]);
    expect(page.body.meta).toMatchObject({ total: 3, current_page: 2, last_page: 2, from: 3 });
  });

  it("answers an empty page for an unknown customer and another workspace's", async () => {
    const none = await ws.api(`/customer-packages?customer_uuid=${crypto.randomUUID()}`);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.total).toBe(0);
    const foreign = await other.api(`/customer-packages?customer_uuid=${anna}`);
    expect(foreign.body.data).toEqual([]);
  });

  it("requires a valid customer_uuid", async () => {
    const missing = await ws.api("/customer-packages");
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(["customer_uuid"]);
    const bad = await ws.api("/customer-packages?customer_uuid=nope");
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["customer_uuid"]);
  });

  it("shows expired, used_up and void from the credits, the clock and the stored status", async () => {
    const c = await createCustomer(ws, "+49 151 33333333");
    const old = await issueOne(ws, {
      packageUuid: tenCuts.uuid,
      customerUuid: c,
      at: Date.now() - 366 * DAY,
    });
    const spent = await issueOne(ws, { packageUuid: tenCuts.uuid, customerUuid: c });
    const voided = await issueOne(ws, { packageUuid: tenCuts.uuid, customerUuid: c });
    await everyShard
      .prepare(
        "update customer_package_credits set used = total - 1, reserved = 1 where customer_package_id = ?",
      )
      .bind(spent)
      .run();
    await everyShard
      .prepare("update customer_packages set status = 'void' where id = ?")
      .bind(voided)
      .run();
    const res = await ws.api(`/customer-packages?customer_uuid=${c}`);
    const status = Object.fromEntries(
      res.body.data.map((p: { uuid: string; status: string }) => [p.uuid, p.status]),
    );
    expect(status).toEqual({ [old]: "expired", [spent]: "used_up", [voided]: "void" });
    // An expired package still shows what it held.
    const expired = res.body.data.find((p: { uuid: string }) => p.uuid === old);
    expect(expired.credits).toHaveLength(2);
  });
});

describe("GET /customer-packages/{uuid}", () => {
  it("answers the full package to a secret key and the public view to a publishable key", async () => {
    const id = await issueOne(ws, { packageUuid: monthly.uuid, customerUuid: anna, card });
    await everyShard
      .prepare(
        "update customer_package_credits set used = 1, reserved = 1 where customer_package_id = ?",
      )
      .bind(id)
      .run();
    const full = await ws.api(`/customer-packages/${id}`);
    expect(full.status).toBe(200);
    expect(d1RoundTrips(full.headers)).toBe(1);
    expect(full.body).toMatchObject({ uuid: id, customer_uuid: anna, price: 5000 });

    const pub = await pk.api(`/customer-packages/${id}`, { headers: ORIGIN });
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect(pub.body).toEqual({
      uuid: id,
      name: "Monthly",
      status: "active",
      expires_at: full.body.expires_at,
      credits: [
        { service_uuids: [colour], remaining: 2, expires_at: full.body.credits[0].expires_at },
      ],
      membership: {
        current_period_start: full.body.membership.current_period_start,
        current_period_end: full.body.membership.current_period_end,
        renewing: true,
      },
    });
    const text = JSON.stringify(pub.body);
    for (const secret of [anna, full.body.order_uuid, monthly.uuid, "5000", "cus_1", "pm_1"])
      expect(text).not.toContain(secret);
  });

  it("answers 404 for an unknown package and another workspace's, to both keys", async () => {
    const id = await issueOne(ws, { packageUuid: tenCuts.uuid, customerUuid: ben });
    const otherPk = await createPublishableKey(other);
    const answers = await Promise.all([
      ws.api(`/customer-packages/${crypto.randomUUID()}`),
      pk.api(`/customer-packages/${crypto.randomUUID()}`, { headers: ORIGIN }),
      other.api(`/customer-packages/${id}`),
      otherPk.api(`/customer-packages/${id}`, { headers: ORIGIN }),
    ]);
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect((await ws.api("/customer-packages/nope")).status).toBe(422);
  });

  it("keeps what was sold when the template changes", async () => {
    const tpl = await createPackageTemplate(ws, {
      name: "Trial",
      credits: [{ service_uuids: [cut], count: 3 }],
      valid_days: 10,
    });
    const id = await issueOne(ws, { packageUuid: tpl.uuid, customerUuid: ben });
    const before = (await ws.api(`/customer-packages/${id}`)).body;
    const patched = await ws.api(`/packages/${tpl.uuid}`, {
      method: "PATCH",
      body: {
        name: "Trial 2",
        price: 1,
        valid_days: 1000,
        credits: [{ service_uuids: [colour], count: 9 }],
        renews: { every: "month" },
        live: false,
      },
    });
    expect(patched.status).toBe(200);
    expect((await ws.api(`/customer-packages/${id}`)).body).toEqual(before);
  });
});

describe("POST /customer-packages/{uuid}/cancel", () => {
  const cancel = (id: string, w = ws) =>
    w.api(`/customer-packages/${id}/cancel`, { method: "POST" });

  it("stops a membership renewing at its period's end; again answers the same", async () => {
    const id = await issueOne(ws, { packageUuid: monthly.uuid, customerUuid: anna, card });
    const before = (await ws.api(`/customer-packages/${id}`)).body;
    const res = await cancel(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A read, then the write at the version read.
    expect(d1RoundTrips(res.headers)).toBe(2);
    expect(res.body).toEqual({
      ...before,
      membership: { ...before.membership, renewing: false, next_charge_at: null },
    });
    const again = await cancel(id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const row = await everyShard
      .prepare("select renewing, next_charge_at, version from customer_packages where id = ?")
      .bind(id)
      .first();
    expect(row).toEqual({ renewing: 0, next_charge_at: null, version: 1 });
  });

  it("gives up a failed charge: a past-due membership is no longer past due", async () => {
    const id = await issueOne(ws, { packageUuid: monthly.uuid, customerUuid: anna, card });
    await everyShard
      .prepare("update customer_packages set past_due = 1, version = version + 1 where id = ?")
      .bind(id)
      .run();
    expect((await ws.api(`/customer-packages/${id}`)).body.status).toBe("past_due");
    const res = await cancel(id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("active");
    expect(res.body.membership).toMatchObject({ renewing: false, past_due: false });
  });

  it("refuses a package that never renews (409 not_a_membership) and a void one (409 package_void)", async () => {
    const plain = await issueOne(ws, { packageUuid: tenCuts.uuid, customerUuid: anna });
    const refused = await cancel(plain);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("not_a_membership");

    const voided = await issueOne(ws, { packageUuid: monthly.uuid, customerUuid: anna, card });
    await everyShard
      .prepare("update customer_packages set status = 'void' where id = ?")
      .bind(voided)
      .run();
    const refusedVoid = await cancel(voided);
    expect(refusedVoid.status).toBe(409);
    expect(refusedVoid.body.code).toBe("package_void");
    const row = await everyShard
      .prepare("select renewing from customer_packages where id = ?")
      .bind(voided)
      .first();
    expect(row).toEqual({ renewing: 1 });
  });

  it("answers 404 for an unknown membership and another workspace's", async () => {
    const id = await issueOne(ws, { packageUuid: monthly.uuid, customerUuid: anna, card });
    expect((await cancel(crypto.randomUUID())).status).toBe(404);
    expect((await cancel(id, other)).status).toBe(404);
    expect((await ws.api(`/customer-packages/${id}`)).body.membership.renewing).toBe(true);
  });
});

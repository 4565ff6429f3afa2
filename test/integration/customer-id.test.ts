import { beforeAll, describe, expect, it } from "vitest";
import { customerIdFor } from "../../src/platform/rules/customer-id";
import { admin } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * A customer_uuid is keyed with the Worker's CUSTOMER_ID_SECRET: from the id
 * and the workspace, trying every candidate phone finds nothing. Customers
 * stored before (their id the unkeyed hash) are found by phone and keep it.
 */

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(1);
});

let hour = 7;
async function book(phone: string) {
  hour += 1;
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at(`${String(hour).padStart(2, "0")}:00`, "2031-03-04"),
      ...customer(phone),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; customer_uuid: string };
}

describe("customer ids", () => {
  it("a new customer's id is not the unkeyed hash of its phone: 10,000 candidate numbers around it find nothing", async () => {
    const phone = "+4915112345678";
    const booked = await book(phone);
    const keyed = await customerIdFor(salon.ws.id, phone, "test-customer-id-secret");
    expect(booked.customer_uuid).toBe(keyed);
    // The audit's attack: hash candidate numbers until one gives the id shown. The right number
    // is among them; without the key it matches nothing.
    const started = Date.now();
    const prefix = "+491511234";
    let found: string | null = null;
    for (let n = 0; n < 10_000 && !found; n++) {
      const candidate = `${prefix}${String(n).padStart(4, "0")}`;
      if ((await customerIdFor(salon.ws.id, candidate, null)) === booked.customer_uuid)
        found = candidate;
    }
    expect(found).toBeNull();
    expect(Date.now() - started).toBeLessThan(60_000);
    // The same customer is found again by phone, on the same id.
    expect((await book(phone)).customer_uuid).toBe(booked.customer_uuid);
  });

  it("a customer stored before ids were keyed keeps its id: bookings, the admin API and the customer list meet on it", async () => {
    const phone = "+4915187654321";
    const legacy = await customerIdFor(salon.ws.id, phone, null);
    await everyShard
      .prepare(
        "insert into customers (id, workspace_id, first_name, phone, created_at) values (?, ?, ?, ?, ?)",
      )
      .bind(legacy, salon.ws.id, "Old", phone, Date.now())
      .run();
    const booked = await book(phone);
    expect(booked.customer_uuid).toBe(legacy);
    const again = await admin(`/workspaces/${salon.ws.id}/customers`, {
      method: "POST",
      body: { first_name: "Old", phone },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(422);
    const listed = await salon.ws.api(`/customers?phone=${encodeURIComponent(phone)}`);
    expect(listed.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([legacy]);
    const count = await everyShard
      .prepare("select count(*) as n from customers where workspace_id = ? and phone = ?")
      .bind(salon.ws.id, phone)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { manageToken } from "../../src/bookings/manage-link";
import { placementOf } from "../../src/db/shards";
import { everyShard } from "../helpers/every-shard";
import { d1RoundTrips, PUBLIC, send } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

let addresses = 0;
/** A manage call from its own client address (the per-address limit never reaches another test). */
function view(token: string) {
  addresses += 1;
  return send(`${PUBLIC}/manage/${token}`, {
    headers: { "cf-connecting-ip": `198.51.100.${100 + addresses}` },
  });
}

interface Booked {
  uuid: string;
  customer_uuid: string;
  end_time: string;
}

async function book(salon: Salon, start: string, phone?: string): Promise<Booked> {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      ...customer(phone),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Booked;
}

async function tokenOf(salon: Salon, booking: Booked) {
  const token = await manageToken(env, {
    id: booking.uuid,
    workspaceId: salon.ws.id,
    customerId: booking.customer_uuid,
    endAt: Date.parse(booking.end_time),
  });
  if (!token) throw new Error("no MANAGE_TOKEN_SECRET in the test bindings");
  return token;
}

let made = 0;
/**
 * A customer package stored as a sale would leave it (no order behind it:
 * the manage page reads only the package and its credits).
 */
async function givePackage(
  salon: Salon,
  customerId: string,
  name: string,
  credits: {
    services: string[];
    total: number;
    used?: number;
    reserved?: number;
    expiresAt: number;
  }[],
  extra: { status?: "active" | "void"; pastDue?: boolean; createdAt?: number } = {},
) {
  made += 1;
  const template = crypto.randomUUID();
  const id = crypto.randomUUID();
  const now = Date.now();
  const created = extra.createdAt ?? now + made;
  const expiresAt = Math.max(...credits.map((c) => c.expiresAt));
  const statements = [
    everyShard
      .prepare(
        "INSERT INTO packages (id, workspace_id, name, price, currency, credits, valid_days, created_at, updated_at) VALUES (?, ?, ?, 9000, 'EUR', '[]', 90, ?, ?)",
      )
      .bind(template, salon.ws.id, name, now, now),
    everyShard
      .prepare(
        "INSERT INTO customer_packages (id, workspace_id, package_id, customer_id, order_id, order_line_id, name, price, currency, valid_days, credit_lines, status, starts_at, expires_at, past_due, location_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 9000, 'EUR', 90, '[]', ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        id,
        salon.ws.id,
        template,
        customerId,
        crypto.randomUUID(),
        crypto.randomUUID(),
        name,
        extra.status ?? "active",
        now - DAY,
        expiresAt,
        extra.pastDue ? 1 : 0,
        salon.location.uuid,
        created,
        created,
      ),
    ...credits.map((c, position) =>
      everyShard
        .prepare(
          "INSERT INTO customer_package_credits (id, workspace_id, customer_package_id, period, position, service_ids, total, used, reserved, expires_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          crypto.randomUUID(),
          salon.ws.id,
          id,
          position,
          JSON.stringify(c.services),
          c.total,
          c.used ?? 0,
          c.reserved ?? 0,
          c.expiresAt,
        ),
    ),
  ];
  for (const s of statements) await s.run();
  return id;
}

interface ShownPackage {
  uuid: string;
  name: string;
  status: string;
  expires_at: string;
  credits: {
    service_uuids: string[];
    service_names: string[];
    total: number;
    remaining: number;
    reserved: number;
    expires_at: string;
  }[];
}

let salon: Salon;
let other: Salon;
beforeAll(async () => {
  [salon, other] = await Promise.all([createSalon(1), createSalon(1)]);
});

describe("the manage page's packages", () => {
  it("lists the booking customer's live packages, newest first, with what each still books", async () => {
    const booking = await book(salon, at("08:00", "2030-04-01"), "+49 151 11111111");
    const later = Math.floor(Date.now() / 1000) * 1000 + 90 * DAY;
    const tenCuts = await givePackage(salon, booking.customer_uuid, "10 haircuts", [
      { services: [salon.cut.uuid], total: 10, used: 2, reserved: 1, expiresAt: later },
    ]);
    const mixed = await givePackage(salon, booking.customer_uuid, "Cut & colour", [
      { services: [salon.cut.uuid, salon.colour.uuid], total: 2, used: 2, expiresAt: later },
    ]);
    // Not shown: a void one, an expired one, and another customer's.
    await givePackage(
      salon,
      booking.customer_uuid,
      "Refunded",
      [{ services: [salon.cut.uuid], total: 5, expiresAt: later }],
      { status: "void" },
    );
    await givePackage(salon, booking.customer_uuid, "Old", [
      { services: [salon.cut.uuid], total: 5, expiresAt: Date.now() - DAY },
    ]);
    const stranger = await book(salon, at("09:00", "2030-04-01"), "+49 151 22222222");
    await givePackage(salon, stranger.customer_uuid, "Someone else's", [
      { services: [salon.cut.uuid], total: 5, expiresAt: later },
    ]);

    const res = await view(await tokenOf(salon, booking));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const packages = (res.body as { packages: ShownPackage[] }).packages;
    expect(packages.map((p) => p.name)).toEqual(["Cut & colour", "10 haircuts"]);
    expect(packages[1]).toEqual({
      uuid: tenCuts,
      name: "10 haircuts",
      status: "active",
      expires_at: iso(later),
      credits: [
        {
          service_uuids: [salon.cut.uuid],
          service_names: ["Haircut"],
          total: 10,
          remaining: 7,
          reserved: 1,
          expires_at: iso(later),
        },
      ],
    });
    expect(packages[0]).toMatchObject({
      uuid: mixed,
      status: "used_up",
      credits: [{ service_names: ["Haircut", "Colouring"], remaining: 0 }],
    });
    // No price, order, customer or billing reaches the link's holder.
    expect(Object.keys(packages[0] ?? {}).sort()).toEqual([
      "credits",
      "expires_at",
      "name",
      "status",
      "uuid",
    ]);
  });

  it("shows a membership whose charge failed even when its credits have lapsed", async () => {
    const booking = await book(salon, at("10:00", "2030-04-01"), "+49 151 33333333");
    await givePackage(
      salon,
      booking.customer_uuid,
      "Monthly",
      [{ services: [salon.cut.uuid], total: 4, expiresAt: Date.now() - DAY }],
      { pastDue: true },
    );
    const res = await view(await tokenOf(salon, booking));
    expect(res.status).toBe(200);
    const packages = (res.body as { packages: ShownPackage[] }).packages;
    expect(packages.map((p) => [p.name, p.status])).toEqual([["Monthly", "past_due"]]);
  });

  it("a customer without packages gets an empty list", async () => {
    const booking = await book(other, at("08:00", "2030-04-02"), "+49 151 44444444");
    const res = await view(await tokenOf(other, booking));
    expect(res.status).toBe(200);
    expect((res.body as { packages: unknown[] }).packages).toEqual([]);
  });

  it("is read in the view's one round trip", async () => {
    const booking = await book(salon, at("11:00", "2030-04-01"), "+49 151 55555555");
    await givePackage(salon, booking.customer_uuid, "5 haircuts", [
      { services: [salon.cut.uuid], total: 5, expiresAt: Date.now() + DAY },
    ]);
    const token = await tokenOf(salon, booking);
    await placementOf(env, salon.ws.id);
    const res = await view(token);
    expect(res.status).toBe(200);
    expect((res.body as { packages: unknown[] }).packages).toHaveLength(1);
    expect(d1RoundTrips(res.headers)).toBe(1);
  });
});

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync, expectUnitsInSync, unitOverlaps } from "../helpers/calendar";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { admin } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * Review probes of the resources change: the edges a reader finds suspicious
 * (statements at the maxima, units under concurrent writers, what slot search
 * promises against what bookings take, tenancy and error bodies). Each test
 * says what it probes; a failing one is a finding.
 */
let salon: Salon;
let staff: string[];
/** Three basins. */
let basins: TestResource;
/** 30 minutes, needs a basin. */
let wash: { uuid: string };
/** Ten one-unit resources of the salon's location. */
let ten: TestResource[];
/** 20 minutes, needs all ten. */
let tenfold: { uuid: string };

// Mondays from 2033-05-02 (Berlin is UTC+2: 10:00Z is 12:00 local).
const monday = (week: number) =>
  new Date(Date.parse("2033-05-02T00:00:00Z") + week * 7 * 86_400_000).toISOString().slice(0, 10);

async function service(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; resource_uuids: string[] };
}

const book = (start: string, serviceId: string, stafferId?: string) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      reserved_on: start,
      ...(stafferId ? { staffer_uuid: stafferId } : {}),
      ...customer(),
    },
  });

const block = (resource: TestResource, body: Record<string, unknown>) =>
  admin(`/workspaces/${salon.ws.id}/resources/${resource.uuid}/blocked-spots`, {
    method: "POST",
    body,
  });

async function slotsOn(date: string, serviceId: string) {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${serviceId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const slots = res.body.dates[0].slots as { start: string; quantity: number }[];
  return new Map(slots.map((s) => [s.start, s.quantity]));
}

/** An error body of the API's shape: message and snake_case code, `errors` only as field → messages. */
function expectErrorShape(body: unknown) {
  expect(body).toEqual(
    expect.objectContaining({ message: expect.any(String), code: expect.any(String) }),
  );
  const b = body as { code: string; errors?: Record<string, unknown> };
  expect(b.code).toMatch(/^[a-z][a-z0-9_]*$/);
  if (b.errors !== undefined) {
    for (const messages of Object.values(b.errors)) {
      expect(Array.isArray(messages)).toBe(true);
    }
  }
  expect(Object.keys(body as object).every((k) => ["message", "code", "errors"].includes(k))).toBe(
    true,
  );
}

beforeAll(async () => {
  salon = await createSalon(4);
  staff = salon.staffers.map((s) => s.uuid);
  basins = await createResource(salon.ws, salon.location.uuid, {
    name: "Basin",
    kind: "chair",
    quantity: 3,
  });
  wash = await service({ name: "Wash", duration: 30, price: 1500, resource_uuids: [basins.uuid] });
  ten = [];
  for (let i = 0; i < 10; i++) {
    ten.push(await createResource(salon.ws, salon.location.uuid, { name: `Item ${i}` }));
  }
  tenfold = await service({
    name: "Full kit",
    duration: 20,
    price: 2000,
    resource_uuids: ten.map((r) => r.uuid),
  });
});

describe("statements at the maxima (10 resources on one service)", () => {
  // FINDING (bug): replace service writes the new entries with one plain INSERT
  // (src/bookings/ops/replace-service.ts, not insertRows): 1 staffer entry + 10
  // unit entries × 10 bound columns = 110 parameters, refused: 500 internal_error.
  it.fails("replace service onto a service needing 10 resources", async () => {
    const date = monday(0);
    const simple = await book(at("10:00", date), salon.cut.uuid, staff[0]);
    expect(simple.status, JSON.stringify(simple.body)).toBe(201);
    const swapped = await salon.ws.api(`/bookings/${simple.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: tenfold.uuid },
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect([...swapped.body.ordered_services[0].resource_uuids].sort()).toEqual(
      ten.map((r) => r.uuid).sort(),
    );
    await expectUnitsInSync(salon.ws.id, ten);
  });

  it("reschedule, change staffer and cancel of a booking holding 10 resources", async () => {
    const date = monday(1);
    const booked = await book(at("10:00", date), tenfold.uuid, staff[0]);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const path = `/bookings/${booked.body.uuid}`;
    const moved = await salon.ws.api(`${path}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("11:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const changed = await salon.ws.api(`${path}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectUnitsInSync(salon.ws.id, ten);
    // Every unit is taken at 11:00, none at 10:00.
    expect((await book(at("11:00", date), tenfold.uuid, staff[2])).status).toBe(409);
    const canceled = await salon.ws.api(`${path}/status/cancel`, { method: "PUT", body: {} });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await book(at("11:00", date), tenfold.uuid, staff[2])).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, ten);
    await expectInSync(salon.ws.id, staff);
  });
});

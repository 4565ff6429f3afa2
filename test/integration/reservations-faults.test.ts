import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/lib/failpoints";
import { expectInSync, expireHolds } from "../helpers/calendar";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * Failures injected into the two writes reservations add (holding, and
 * booking what is held): after the D1 commit, a lost confirm, both, and a
 * batch that certainly failed. The held time never reaches a third client.
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(2);
  staff = salon.staffers.map((s) => s.uuid);
});
afterEach(() => failpoints.disarmAll());

let day = 0;
const nextDate = () => {
  day += 1;
  return new Date(
    Date.UTC(2033, 0, 3) + (Math.floor((day - 1) / 5) * 7 + ((day - 1) % 5)) * 86_400_000,
  )
    .toISOString()
    .slice(0, 10);
};

const reserve = (date: string) =>
  salon.ws.api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("10:00", date),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: staff[0] }],
        },
      ],
    },
  });

const book = (date: string, extra: Record<string, unknown> = {}, phone = "+49 151 70000000") =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: staff[0],
      reserved_on: at("10:00", date),
      ...customer(phone),
      ...extra,
    },
  });

/** A third client's try for the held or booked time. */
const probe = async (date: string) => (await book(date, {}, "+49 151 70000001")).status;

const bookings = async (date: string) =>
  (
    await env.DB.prepare(
      "select count(*) as n from bookings where workspace_id = ? and start_at = ? and is_canceled = 0",
    )
      .bind(salon.ws.id, Date.parse(at("10:00", date)))
      .first<{ n: number }>()
  )?.n ?? 0;

const calendarBatch = (sql: string) => sql.includes("hold_fences");

describe("holding time", () => {
  it("commits, but the Worker never hears of it: settles at once and answers 201", async () => {
    const date = nextDate();
    failpoints.arm("d1.batch.committed", calendarBatch);
    const res = await reserve(date);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectInSync(salon.ws.id, staff);
    expect(await probe(date)).toBe(409);
    expect((await salon.ws.api(`/reservations/${res.body.uuid}`)).status).toBe(200);
  });
});

describe("booking what a reservation holds", () => {
  async function held(date: string) {
    const res = await reserve(date);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.uuid as string;
  }

  it("commits, but the Worker never hears of it: settled as committed, 201", async () => {
    const date = nextDate();
    const id = await held(date);
    failpoints.arm("d1.batch.committed", calendarBatch);
    const res = await book(date, { reservation_uuid: id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await bookings(date)).toBe(1);
    await expectInSync(salon.ws.id, staff);
    expect(await probe(date)).toBe(409);
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(404);
  });

  it("loses the confirm: held and booked time both stay busy until the alarm settles", async () => {
    const date = nextDate();
    const id = await held(date);
    failpoints.arm("calendar.confirm", () => true, 3);
    const res = await book(date, { reservation_uuid: id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await probe(date)).toBe(409);
    await expireHolds(salon.ws.id, staff);
    await expectInSync(salon.ws.id, staff);
    expect(await probe(date)).toBe(409);
  });

  it("commits, and the answer and the settlement are lost: 500, no third client gets in, the alarm settles", async () => {
    const date = nextDate();
    const id = await held(date);
    failpoints.arm("d1.batch.committed", calendarBatch);
    failpoints.arm("calendar.settle", () => true, 3);
    const res = await book(date, { reservation_uuid: id });
    expect(res.status).toBe(500);
    expect(await bookings(date)).toBe(1);
    expect(await probe(date)).toBe(409);
    await expireHolds(salon.ws.id, staff);
    await expectInSync(salon.ws.id, staff);
    expect(await probe(date)).toBe(409);
  });

  it("fails for certain inside the batch: nothing written, the reservation still holds and can be used", async () => {
    const date = nextDate();
    const id = await held(date);
    await env.DB.exec(
      "CREATE TRIGGER fault_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected'); END",
    );
    let status: number;
    try {
      status = (await book(date, { reservation_uuid: id })).status;
    } finally {
      await env.DB.exec("DROP TRIGGER fault_events");
    }
    expect(status).toBe(500);
    expect(await bookings(date)).toBe(0);
    await expectInSync(salon.ws.id, staff);
    expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(200);
    expect(await probe(date)).toBe(409);
    expect((await book(date, { reservation_uuid: id })).status).toBe(201);
    await expectInSync(salon.ws.id, staff);
  });
});

import { describe, expect, it } from "vitest";
import { send } from "../../helpers/http";
import { createWorkspace } from "../../helpers/factory";
import { basic, enableRwg, googleSalon, RWG, sec } from "../../helpers/rwg";
import { at } from "../../helpers/salon";

describe("Reserve with Google: what a caller who is not Google can do", () => {
  it("learns nothing from a refusal: no timings, the same body for a wrong password and an unknown user", async () => {
    const ws = await createWorkspace();
    const creds = await enableRwg(ws);
    const wrong = await send(`${RWG}/HealthCheck`, {
      headers: { authorization: basic({ ...creds, password: `${creds.password}!` }) },
    });
    const unknown = await send(`${RWG}/HealthCheck`, {
      headers: { authorization: basic({ username: "no-such-user", password: creds.password }) },
    });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.headers.get("server-timing")).toBeNull();
    }
    expect(wrong.body).toEqual(unknown.body);
  });

  it("cannot make the server recurse: a deeply nested body is 400, not 500", async () => {
    const { google } = await googleSalon(1);
    let deep: unknown = {};
    for (let i = 0; i < 5000; i++) deep = [deep];
    const res = await google("CheckAvailability", { slot: deep });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid_argument" });
  });

  it("names at most 100 distinct services in one lookup (400 past it), and only service-shaped ids are looked up", async () => {
    const { google, location, cut } = await googleSalon(1);
    const start = sec(at("09:00", "2030-03-05"));
    const slot = (serviceId: string) => ({
      service_id: serviceId,
      start_sec: start,
      duration_sec: "2700",
    });
    const many = Array.from({ length: 101 }, () => slot(crypto.randomUUID()));
    const refused = await google("BatchAvailabilityLookup", {
      merchant_id: location.uuid,
      slot_time: many,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_argument" });

    const junk = Array.from({ length: 300 }, (_, i) =>
      slot(`not-a-service-${i}-${"x".repeat(200)}`),
    );
    const answered = await google("BatchAvailabilityLookup", {
      merchant_id: location.uuid,
      slot_time: [...junk, slot(cut.uuid)],
    });
    expect(answered.status).toBe(200);
    const availability = answered.body.slot_time_availability as { available: boolean }[];
    expect(availability).toHaveLength(301);
    expect(availability.slice(0, 300).every((a) => !a.available)).toBe(true);
    expect(availability[300]?.available).toBe(true);
  });
});

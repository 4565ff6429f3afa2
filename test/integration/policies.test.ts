import { beforeAll, describe, expect, it } from "vitest";
import { admin, client, type Client } from "../helpers/http";
import { createSalon, customer, type Salon } from "../helpers/salon";

const MIN = 60_000;
const DAY = 86_400_000;
const ORIGIN = "https://salon.example";

let salon: Salon;
let widget: Client;
beforeAll(async () => {
  salon = await createSalon();
  const key = await admin(`/workspaces/${salon.ws.id}/api-keys`, {
    method: "POST",
    body: { kind: "publishable", allowed_origins: [ORIGIN] },
  });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  const pk = client(salon.ws.id, key.body.api_key);
  // A browser sends its origin; the key allows this one.
  widget = (path, sent = {}) => pk(path, { ...sent, headers: { origin: ORIGIN, ...sent.headers } });
});

let week = 0;
/**
 * A booking 10:00Z on a weekday some weeks from now (near enough for the
 * offsets to reach it), each on its own date so tests never share time.
 */
async function booking(staffer = 0) {
  week += 1;
  const base = new Date(Date.now() + (7 + week * 7) * DAY);
  const monday = base.getTime() - ((base.getUTCDay() + 6) % 7) * DAY;
  const start = `${new Date(monday).toISOString().slice(0, 10)}T10:00:00Z`;
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      staffer_uuid: salon.staffers[staffer]?.uuid,
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { uuid: res.body.uuid as string, start: Date.parse(start) };
}

const setPolicy = async (body: Record<string, unknown>) => {
  const res = await admin(`/workspaces/${salon.ws.id}/locations/${salon.location.uuid}`, {
    method: "PATCH",
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/**
 * Offsets putting the policy's deadline one minute past now (the window has
 * begun: refused) or one minute ahead (still allowed). Offsets are whole
 * minutes, so the margin is between one and two minutes either way.
 */
const inside = (start: number) => Math.ceil((start - Date.now()) / MIN) + 1;
const outside = (start: number) => Math.floor((start - Date.now()) / MIN) - 1;

const cancel = (api: Client, id: string) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
const reschedule = (api: Client, id: string, start: number) =>
  api(`/bookings/${id}/reschedule`, {
    method: "PUT",
    body: { reserved_on: new Date(start + 60 * MIN).toISOString().replace(".000Z", "Z") },
  });

describe("the policy object", () => {
  it("shows the location's policy on create, get, cart and changes; 0 means no limit", async () => {
    await setPolicy({
      cancellation_offset: 0,
      change_offset: 0,
      policy_text: null,
      cancellation_text: null,
      change_text: null,
    });
    const plain = await booking();
    const got = await salon.ws.api(`/bookings/${plain.uuid}`);
    expect(got.body.policy).toEqual({
      policy_text: null,
      is_cancelable: true,
      cancellation_offset: 0,
      cancellation_text: null,
      is_changeable: true,
      change_offset: 0,
      change_text: null,
    });

    await setPolicy({
      cancellation_offset: 1440,
      change_offset: 120,
      policy_text: "Be on time.",
      cancellation_text: "Cancel a day ahead.",
      change_text: "Move up to two hours ahead.",
    });
    const expected = {
      policy_text: "Be on time.",
      is_cancelable: true,
      cancellation_offset: 1440,
      cancellation_text: "Cancel a day ahead.",
      is_changeable: true,
      change_offset: 120,
      change_text: "Move up to two hours ahead.",
    };
    const created = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: new Date((await booking(1)).start + 2 * 60 * MIN)
          .toISOString()
          .replace(".000Z", "Z"),
        ...customer(),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.policy).toEqual(expected);
    expect((await salon.ws.api(`/bookings/${plain.uuid}`)).body.policy).toEqual(expected);

    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: new Date(plain.start + 3 * 60 * MIN)
              .toISOString()
              .replace(".000Z", "Z"),
            services: [{ service_uuid: salon.cut.uuid }],
          },
        ],
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect(cart.body.bookings[0].policy).toEqual(expected);

    const canceled = await cancel(salon.ws.api, plain.uuid);
    expect(canceled.status).toBe(200);
    // A closed booking can be neither canceled nor changed, whatever the offsets.
    expect(canceled.body.policy).toEqual({
      ...expected,
      is_cancelable: false,
      is_changeable: false,
    });
  });

  it("computes is_cancelable and is_changeable for now; a change is held to both deadlines", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: inside(b.start), change_offset: outside(b.start) });
    const got = await salon.ws.api(`/bookings/${b.uuid}`);
    // Past the cancel deadline a move would free the time all the same: not changeable either.
    expect(got.body.policy).toMatchObject({ is_cancelable: false, is_changeable: false });
    await setPolicy({ cancellation_offset: outside(b.start), change_offset: inside(b.start) });
    const again = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(again.body.policy).toMatchObject({ is_cancelable: true, is_changeable: false });
  });
});

describe("publishable keys are held to the policy, secret keys are not", () => {
  it("cancel one minute inside the window: 409 policy_window_passed for a publishable key, nothing changes", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: inside(b.start), change_offset: 0 });
    const res = await cancel(widget, b.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("policy_window_passed");
    const got = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(got.body).toMatchObject({ is_canceled: false, policy: { is_cancelable: false } });
  });

  it("cancel one minute inside the window: a secret key still cancels", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: inside(b.start) });
    const res = await cancel(salon.ws.api, b.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_canceled).toBe(true);
  });

  it("cancel one minute outside the window: a publishable key cancels", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: outside(b.start) });
    const res = await cancel(widget, b.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_canceled).toBe(true);
  });

  it("cancel with no limit (0): a publishable key cancels", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: 0, change_offset: inside(b.start) });
    expect((await cancel(widget, b.uuid)).status).toBe(200);
  });

  it("reschedule one minute inside the window: 409 for a publishable key, the booking stays", async () => {
    const b = await booking();
    await setPolicy({ change_offset: inside(b.start), cancellation_offset: 0 });
    const res = await reschedule(widget, b.uuid, b.start);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("policy_window_passed");
    const got = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(Date.parse(got.body.start_time)).toBe(b.start);
    expect(got.body.policy.is_changeable).toBe(false);
  });

  it("reschedule one minute inside the window: a secret key still moves it", async () => {
    const b = await booking();
    await setPolicy({ change_offset: inside(b.start) });
    const res = await reschedule(salon.ws.api, b.uuid, b.start);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Date.parse(res.body.start_time)).toBe(b.start + 60 * MIN);
  });

  it("reschedule one minute outside the window: a publishable key moves it", async () => {
    const b = await booking();
    await setPolicy({ change_offset: outside(b.start) });
    const res = await reschedule(widget, b.uuid, b.start);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Date.parse(res.body.start_time)).toBe(b.start + 60 * MIN);
  });

  it("reschedule with no limit (0): a publishable key moves it", async () => {
    const b = await booking();
    await setPolicy({ change_offset: 0, cancellation_offset: 0 });
    expect((await reschedule(widget, b.uuid, b.start)).status).toBe(200);
  });

  it("a publishable key cannot dodge the cancel deadline by moving the booking away first", async () => {
    const b = await booking();
    await setPolicy({ change_offset: 0, cancellation_offset: inside(b.start) });
    const moved = await reschedule(widget, b.uuid, b.start);
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("policy_window_passed");
    // Staff still can.
    expect((await reschedule(salon.ws.api, b.uuid, b.start)).status).toBe(200);
  });

  it("a closed booking is still booking_closed, not a policy matter", async () => {
    const b = await booking();
    await setPolicy({ cancellation_offset: 0 });
    expect((await cancel(salon.ws.api, b.uuid)).status).toBe(200);
    const res = await cancel(widget, b.uuid);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("booking_closed");
  });
});

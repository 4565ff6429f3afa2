import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { bookThroughGoogle, cutStarts, deskCancel } from "../helpers/rwg-booked";
import { enableRwg, googleClient, googleSalon } from "../helpers/rwg";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { consumeFrom } from "../helpers/queue";
import { until } from "../helpers/messages";
import { RWG_QUEUE_NAME, type RwgMessage } from "../../src/reserve-with-google/notify/message";
import type { Env } from "../../src/platform/env";

/*
 * Real-time updates reach google-local (tools/google-local, one per run: test/setup/google-server.ts),
 * which checks each request as Google documents it and answers 400 when it is not. Every
 * file shares it: a test reads only the calls about its own bookings and locations.
 */

interface Call {
  method: string;
  path: string;
  updateMask: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  status: number;
}

const google = () => inject("googleServer");

async function calls(pathContains: string): Promise<Call[]> {
  const res = await fetch(
    `${google()}/_requests?path_contains=${encodeURIComponent(pathContains)}`,
  );
  return ((await res.json()) as { data: Call[] }).data;
}

/** The availability replaces naming a location (its merchant id). */
const replacesOf = async (locationId: string) =>
  (await calls("/availability:replace")).filter((c) =>
    (c.body?.extendedServiceAvailability ?? []).some(
      (e: { merchantId: string }) => e.merchantId === locationId,
    ),
  );

const armFault = (body: { status: number; count: number; path_contains: string }) =>
  fetch(`${google()}/_faults`, { method: "PUT", body: JSON.stringify(body) });

const bookingPath = (id: string) => `/v1alpha/notification/partners/20001/bookings/${id}`;

describe("real-time updates to Google", () => {
  it("tells Google of a booking it made and the desk cancelled: a valid PATCH with status CANCELED", async () => {
    const salon = await googleSalon();
    const { id } = await bookThroughGoogle(salon, at("09:00", "2030-03-05"));
    const canceled = await deskCancel(salon, id);
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);

    const [patch] = await until(async () => {
      const got = await calls(bookingPath(id));
      return got.length > 0 && got;
    });
    expect(patch).toMatchObject({
      method: "PATCH",
      path: bookingPath(id),
      updateMask: "status",
      status: 200,
      body: {
        name: `partners/20001/bookings/${id}`,
        merchantId: salon.location.uuid,
        serviceId: salon.cut.uuid,
        startTime: "2030-03-05T09:00:00Z",
        duration: "2700s",
        status: "CANCELED",
      },
    });
    // Every call Google got from this salon was one it took.
    const replaces = await until(async () => {
      const got = await replacesOf(salon.location.uuid);
      return got.length >= 2 && got;
    });
    expect(replaces.map((c) => c.status)).toEqual(replaces.map(() => 200));
  });

  it("retries a notification Google failed twice (503) and delivers it on the third try", async () => {
    const salon = await googleSalon();
    const { id } = await bookThroughGoogle(salon, at("10:00", "2030-03-05"));
    await armFault({ status: 503, count: 2, path_contains: bookingPath(id) });
    expect((await deskCancel(salon, id)).status).toBe(200);

    const got = await until(async () => {
      const c = await calls(bookingPath(id));
      return c.some((x) => x.status === 200) && c;
    });
    expect(got.map((c) => c.status)).toEqual([503, 503, 200]);
    expect(got[2]?.body.status).toBe("CANCELED");
  });

  it("tells Google of a move at the desk (startTime,duration) and of a no-show (NO_SHOW)", async () => {
    const salon = await googleSalon();
    const moved = await bookThroughGoogle(salon, at("12:00", "2030-03-05"));
    const res = await salon.ws.api(`/bookings/${moved.id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("13:00", "2030-03-05") },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [patch] = await until(async () => {
      const got = await calls(bookingPath(moved.id));
      return got.length > 0 && got;
    });
    expect(patch).toMatchObject({
      updateMask: "startTime,duration",
      status: 200,
      body: { startTime: "2030-03-05T13:00:00Z", duration: "2700s", status: "CONFIRMED" },
    });

    const missed = await bookThroughGoogle(salon, at("14:00", "2030-03-05"));
    expect((await deskCancel(salon, missed.id, { cancel_reason: "didnt_come" })).status).toBe(200);
    const [noShow] = await until(async () => {
      const got = await calls(bookingPath(missed.id));
      return got.length > 0 && got;
    });
    expect(noShow).toMatchObject({
      updateMask: "status",
      status: 200,
      body: { status: "NO_SHOW" },
    });
  });

  it("does not tell Google of its own cancel (UpdateBooking), only the spots it freed", async () => {
    const salon = await googleSalon();
    const { id } = await bookThroughGoogle(salon, at("11:00", "2030-03-05"));
    const res = await salon.google("UpdateBooking", {
      booking: { booking_id: id, status: "CANCELED" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The cancel's availability replace shows the 11:00 start fully open again.
    await until(async () =>
      (await replacesOf(salon.location.uuid)).some((c) =>
        c.body.extendedServiceAvailability.some(
          (e: { serviceId: string; availability: { startTime: string; spotsOpen: string }[] }) =>
            e.serviceId === salon.cut.uuid &&
            e.availability.some(
              (a) => a.startTime === "2030-03-05T11:00:00Z" && a.spotsOpen === "3",
            ),
        ),
      ),
    );
    expect(await calls(bookingPath(id))).toEqual([]);
  });

  it("replaces the location's availability after a widget booking, its spots those the time slots show", async () => {
    const salon = await googleSalon();
    const pk = await createPublishableKey(salon.ws);
    const booked = await pk.api("/bookings", {
      method: "POST",
      headers: { origin: "https://salon.example" },
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", "2030-03-06"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    const [replace] = await until(async () => {
      const got = await replacesOf(salon.location.uuid);
      return got.length > 0 && got;
    });
    expect(replace?.status).toBe(200);
    const entries = replace?.body.extendedServiceAvailability as {
      merchantId: string;
      serviceId: string;
      startTimeRestrict: string;
      endTimeRestrict: string;
      availability: {
        startTime: string;
        duration: string;
        spotsTotal: string;
        spotsOpen: string;
      }[];
    }[];
    // Both services, over the booking's local day in Berlin.
    expect(entries.map((e) => e.serviceId).sort()).toEqual(
      [salon.cut.uuid, salon.colour.uuid].sort(),
    );
    for (const e of entries) {
      expect(e.startTimeRestrict).toBe("2030-03-05T23:00:00Z");
      expect(e.endTimeRestrict).toBe("2030-03-06T23:00:00Z");
    }
    const cut = entries.find((e) => e.serviceId === salon.cut.uuid);
    // The public time slots' starts are Berlin wall-clock times (UTC+1 in March).
    const shown = await cutStarts(salon, "2030-03-06");
    const berlin = (iso: string) =>
      new Date(Date.parse(iso) + 3_600_000).toISOString().slice(11, 16);
    expect(
      new Map(cut?.availability.map((a) => [berlin(a.startTime), Number(a.spotsOpen)])),
    ).toEqual(shown);
    // The booked start (09:00Z) has one staffer of three taken.
    const booked9 = cut?.availability.find((a) => a.startTime === "2030-03-06T09:00:00Z");
    expect(booked9).toMatchObject({ duration: "2700s", spotsTotal: "3", spotsOpen: "2" });
  });

  it("tells Google under the salon's own partner account when it has one (partner_id), not the platform's", async () => {
    const plain = await createSalon();
    const creds = await enableRwg(plain.ws, { partnerId: "30003" });
    const salon = { ...plain, google: googleClient(creds) };
    const { id } = await bookThroughGoogle(salon, at("15:00", "2030-03-05"));
    expect((await deskCancel(salon, id)).status).toBe(200);

    const own = `/v1alpha/notification/partners/30003/bookings/${id}`;
    const [patch] = await until(async () => {
      const got = await calls(own);
      return got.length > 0 && got;
    });
    expect(patch).toMatchObject({
      status: 200,
      body: { name: `partners/30003/bookings/${id}`, status: "CANCELED" },
    });
    const replaces = await until(async () => {
      const got = await replacesOf(salon.location.uuid);
      return got.length >= 2 && got;
    });
    for (const r of replaces) {
      expect(r.path).toBe("/v1alpha/inventory/partners/30003/availability:replace");
      expect(r.status).toBe(200);
    }
    expect(await calls(bookingPath(id))).toEqual([]);
  });

  it("sends nothing for a workspace without the booking server", async () => {
    const plain: Salon = await createSalon();
    const booked = await plain.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: plain.location.uuid,
        service_uuid: plain.cut.uuid,
        reserved_on: at("09:00", "2030-03-07"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await deskCancel(plain, booked.body.uuid)).status).toBe(200);
    // A booking of an enabled salon made after: once its update arrived, the plain one's had its turn.
    const salon = await googleSalon();
    await bookThroughGoogle(salon, at("09:00", "2030-03-07"));
    await until(async () => (await replacesOf(salon.location.uuid)).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await replacesOf(plain.location.uuid)).toEqual([]);
    expect(await calls(booked.body.uuid)).toEqual([]);
  });
});

describe("the update consumer's decisions", () => {
  let salon: Awaited<ReturnType<typeof googleSalon>>;
  const notification = (id: string): RwgMessage => ({
    kind: "booking",
    workspaceId: salon.ws.id,
    partnerId: "20001",
    bookingId: id,
    mask: "status",
  });

  it("acks a request Google refuses for good (400), and retries a 429 with a delay", async () => {
    salon = await googleSalon();
    const { id } = await bookThroughGoogle(salon, at("14:00", "2030-03-08"));
    // The desk's cancel, told to Google through the queue first: the faults below are armed
    // once that call is over, for the consumer's calls this test makes itself.
    expect((await deskCancel(salon, id)).status).toBe(200);
    await until(async () => (await calls(bookingPath(id))).length > 0);

    await armFault({ status: 400, count: 1, path_contains: bookingPath(id) });
    const refused = await consumeFrom(RWG_QUEUE_NAME, [{ id: "m-400", body: notification(id) }]);
    expect(refused.explicitAcks).toEqual(["m-400"]);
    expect(refused.retryMessages).toEqual([]);

    await armFault({ status: 429, count: 1, path_contains: bookingPath(id) });
    const limited = await consumeFrom(RWG_QUEUE_NAME, [
      { id: "m-429", body: notification(id), attempts: 1 },
    ]);
    expect(limited.explicitAcks).toEqual([]);
    // Retried at once: the tests' backoff base is 0 and google-local sends no Retry-After.
    expect(limited.retryMessages).toMatchObject([{ msgId: "m-429" }]);

    const statuses = (await calls(bookingPath(id))).map((c) => c.status);
    expect(statuses.slice(-2)).toEqual([400, 429]);
  });

  it("retries an update whose token the token endpoint refused (400 invalid_grant): not the update's fault", async () => {
    salon = await googleSalon();
    const { id } = await bookThroughGoogle(salon, at("15:00", "2030-03-08"));
    // A change Google has to hear of (the desk's cancel), its own notification over first.
    expect((await deskCancel(salon, id)).status).toBe(200);
    const before = await until(async () => (await calls(bookingPath(id))).length);
    // Another service account (no token cached for it) whose assertions name the wrong audience:
    // google-local answers 400 invalid_grant, as Google does for a skewed clock or a rotated key.
    const bindings: Env = env;
    const account = JSON.parse(bindings.RWG_SERVICE_ACCOUNT_JSON ?? "{}") as Record<string, string>;
    const skewed: Env = {
      ...bindings,
      RWG_SERVICE_ACCOUNT_JSON: JSON.stringify({
        ...account,
        client_email: `skewed-${crypto.randomUUID()}@example.iam.gserviceaccount.com`,
        token_uri: `${account.token_uri}?audience=wrong`,
      }),
    };
    const out = await consumeFrom(
      RWG_QUEUE_NAME,
      [{ id: "m-token", body: notification(id), attempts: 1 }],
      skewed,
    );
    expect(out.explicitAcks).toEqual([]);
    expect(out.retryMessages).toMatchObject([{ msgId: "m-token" }]);
    // No call reached the API without a token.
    expect((await calls(bookingPath(id))).length).toBe(before);
  });
});

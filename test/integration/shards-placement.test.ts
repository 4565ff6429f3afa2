import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { WorkspaceNotHereError } from "../../src/db/instrumented-d1";
import { locations } from "../../src/db/schema";
import { bookmarkFor, tenantHandle } from "../../src/db/shards";
import { sendDirect } from "../helpers/direct";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, PUBLIC } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { d1, SHARD_NAMES } from "../helpers/shard-holdings";
import { timing } from "../helpers/series";

/**
 * The placement check: a workspace is read and written only on the shard
 * where it is `open` (read also while `moving_out`), whatever handle asks;
 * through HTTP a refused call is a 503 `workspace_moving` that leaves no row.
 * And the Sessions API: every answer that touched a shard names its bookmark,
 * which a client sends back to read its own writes.
 */

let salon: Salon;
let home: string;
let away: string;

beforeAll(async () => {
  salon = await createSalon(1);
  home = salon.ws.shard;
  away = SHARD_NAMES.find((name) => name !== home) as string;
});

/** The error a call was refused with: a WorkspaceNotHereError, wherever drizzle wrapped it. */
async function refusal(call: Promise<unknown>): Promise<WorkspaceNotHereError | null> {
  try {
    await call;
  } catch (error) {
    for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
      if (e instanceof WorkspaceNotHereError) return e;
      e = e.cause;
    }
    throw error;
  }
  return null;
}

const countOn = async (shard: string, table: string, workspaceId: string) =>
  (
    await d1(shard)
      .prepare(`SELECT count(*) AS n FROM "${table}" WHERE workspace_id = ?`)
      .bind(workspaceId)
      .first<{ n: number }>()
  )?.n ?? 0;

const setPlacement = (placement: string, ws: TestWorkspace = salon.ws) =>
  d1(ws.shard)
    .prepare("UPDATE workspaces SET placement = ? WHERE id = ?")
    .bind(placement, ws.id)
    .run();

const newLocation = (workspaceId: string) => ({
  id: crypto.randomUUID(),
  workspaceId,
  name: "Nowhere",
  timezone: "Europe/Berlin",
  createdAt: Date.now(),
});

describe("a workspace handle on a shard where the workspace does not live", () => {
  it("refuses reads, lone writes and write batches, and writes nothing there", async () => {
    const wrong = tenantHandle(env, away, salon.ws.id);
    const read = wrong.db.select().from(locations).where(eq(locations.workspaceId, salon.ws.id));
    expect(await refusal(read)).toBeInstanceOf(WorkspaceNotHereError);
    expect(
      await refusal(wrong.db.insert(locations).values(newLocation(salon.ws.id))),
    ).toBeInstanceOf(WorkspaceNotHereError);
    const batch = wrong.db.batch([
      wrong.db.insert(locations).values(newLocation(salon.ws.id)),
      wrong.db.insert(locations).values(newLocation(salon.ws.id)),
    ]);
    expect(await refusal(batch)).toBeInstanceOf(WorkspaceNotHereError);
    expect(await countOn(away, "locations", salon.ws.id)).toBe(0);
  });

  it("the directory is no home either (its row says `directory`)", async () => {
    const directory = tenantHandle(env, "DB", salon.ws.id);
    const read = directory.db
      .select()
      .from(locations)
      .where(eq(locations.workspaceId, salon.ws.id));
    expect(await refusal(read)).toBeInstanceOf(WorkspaceNotHereError);
    expect(
      await refusal(directory.db.insert(locations).values(newLocation(salon.ws.id))),
    ).toBeInstanceOf(WorkspaceNotHereError);
    expect(await countOn("DB", "locations", salon.ws.id)).toBe(0);
  });

  it("the workspace's own shard answers both, the same calls", async () => {
    const right = tenantHandle(env, home, salon.ws.id);
    const before = await right.db
      .select()
      .from(locations)
      .where(eq(locations.workspaceId, salon.ws.id));
    expect(before.map((l) => l.id)).toEqual([salon.location.uuid]);
    await right.db.insert(locations).values(newLocation(salon.ws.id));
    expect(await countOn(home, "locations", salon.ws.id)).toBe(2);
    await d1(home)
      .prepare("DELETE FROM locations WHERE workspace_id = ? AND name = 'Nowhere'")
      .bind(salon.ws.id)
      .run();
  });
});

describe("through HTTP, a workspace whose placement is not open", () => {
  const book = (hhmm: string) =>
    salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: at(hhmm),
        ...customer("+49 151 20000001"),
      },
    });
  const addWebhook = () =>
    salon.ws.api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/moving", events: ["booking-created"] },
    });

  it("moving_out: writes answer 503 workspace_moving with Retry-After and leave no row; reads answer", async () => {
    // Known to this isolate first, as a workspace in use is.
    expect((await salon.ws.api("/locations")).status).toBe(200);
    await setPlacement("moving_out");
    try {
      const writes = [
        ["POST /webhooks", await addWebhook()],
        ["POST /bookings", await book("10:00")],
        [
          "admin POST customer",
          await admin(`/workspaces/${salon.ws.id}/customers`, {
            method: "POST",
            body: { first_name: "Ida", phone: "030 7654321" },
          }),
        ],
      ] as const;
      for (const [name, res] of writes) {
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(503);
        expect(res.body.code, name).toBe("workspace_moving");
        expect(res.headers.get("retry-after"), name).toBe("1");
      }
      for (const table of ["webhooks", "bookings", "customers", "calendar_entries", "events"]) {
        expect(await countOn(home, table, salon.ws.id), table).toBe(0);
      }
      const read = await salon.ws.api("/locations");
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.data.map((l: { uuid: string }) => l.uuid)).toEqual([salon.location.uuid]);
      expect((await admin(`/workspaces/${salon.ws.id}/resources`)).status).toBe(200);
    } finally {
      await setPlacement("open");
    }
  });

  it("moved (or moving_in): reads answer 503 too; open again, everything answers and the booking's time is free", async () => {
    for (const placement of ["moving_in", "moved"]) {
      await setPlacement(placement);
      try {
        for (const res of [
          await salon.ws.api("/locations"),
          await salon.ws.api("/webhooks"),
          await admin(`/workspaces/${salon.ws.id}/resources`),
        ]) {
          expect(res.status, JSON.stringify(res.body)).toBe(503);
          expect(res.body.code).toBe("workspace_moving");
          expect(res.headers.get("retry-after")).toBe("1");
        }
      } finally {
        await setPlacement("open");
      }
    }
    expect((await salon.ws.api("/locations")).status).toBe(200);
    expect((await addWebhook()).status).toBe(201);
    // The refused booking above held no time: the same slot books now.
    const booked = await book("10:00");
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  });
});

describe("read-your-writes with D1-Bookmark", () => {
  let other: TestWorkspace;
  let written: { id: number; bookmark: string };

  beforeAll(async () => {
    other = await createWorkspace();
    if (other.shard === salon.ws.shard) other = await createWorkspace();
    const res = await salon.ws.api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/bookmark", events: ["booking-created"] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    written = { id: res.body.id, bookmark: res.headers.get("d1-bookmark") ?? "" };
  });

  it("a write's answer names its shard's bookmark; a read sending it back sees the write", async () => {
    expect(written.bookmark).toMatch(new RegExp(`^${home}\\.[0-9a-f-]+$`));
    const read = await salon.ws.api(`/webhooks/${written.id}`, {
      headers: { "d1-bookmark": written.bookmark },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.url).toBe("https://hooks.example.com/bookmark");
    // The read's own answer carries a bookmark of the same shard, no older than the one sent.
    const again = read.headers.get("d1-bookmark") ?? "";
    expect(again.startsWith(`${home}.`)).toBe(true);
    expect(again >= written.bookmark).toBe(true);
  });

  it("a new workspace's answer names the bookmark of its shard; its first read may send it", async () => {
    const created = await admin("/workspaces", {
      method: "POST",
      body: { name: "Fresh", country: "DE", currency: "EUR", timezone: "Europe/Berlin" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bookmark = created.headers.get("d1-bookmark") ?? "";
    expect(bookmark.startsWith(`${created.body.shard}.`), bookmark).toBe(true);
    const read = await sendDirect(`${PUBLIC}/booking-statuses`, {
      headers: {
        authorization: `Bearer ${created.body.api_key}`,
        workspace: created.body.uuid,
        "d1-bookmark": bookmark,
      },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.length).toBeGreaterThan(0);
  });

  it("a bookmark of another shard, or garbage, is ignored: the read still answers", async () => {
    expect(other.shard).not.toBe(home);
    const elsewhere = (await other.api("/locations")).headers.get("d1-bookmark");
    expect(elsewhere?.startsWith(`${other.shard}.`)).toBe(true);
    // What D1 makes is taken; what it could not have made is not even handed to it.
    expect(bookmarkFor(home, written.bookmark)).toEqual({
      bookmark: written.bookmark.slice(home.length + 1),
    });
    expect(bookmarkFor(home, elsewhere ?? "")).toBeNull();
    expect(bookmarkFor(home, `${home}.0000-ffff`)).toBeNull();
    expect(bookmarkFor(home, `${home}.${"f".repeat(200)}`)).toBeNull();
    for (const bookmark of [
      elsewhere as string,
      "garbage",
      `${home}.not a bookmark!`,
      `${home}.`,
      `${home}.0000-ffff`,
      `${home}.${"f".repeat(200)}`,
    ]) {
      const read = await salon.ws.api(`/webhooks/${written.id}`, {
        headers: { "d1-bookmark": bookmark },
      });
      expect(read.status, `${bookmark}: ${JSON.stringify(read.body)}`).toBe(200);
      expect(read.body.id).toBe(written.id);
    }
  });

  it("an answer that touched no shard carries none; a refused key's answer carries none", async () => {
    const refused = await sendDirect(`${PUBLIC}/locations`, {
      headers: { authorization: `Bearer ${other.apiKey}`, workspace: salon.ws.id },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("d1-bookmark")).toBeNull();
  });

  it("a browser may read the bookmark and send it back (CORS)", async () => {
    const site = "https://salon.example";
    const pk = await createPublishableKey(salon.ws, [site]);
    const preflight = await sendDirect(`${PUBLIC}/services`, {
      method: "OPTIONS",
      headers: {
        origin: site,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, workspace, d1-bookmark",
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    expect(allowed.split(",")).toContain("d1-bookmark");
    const read = await pk.api("/services", { headers: { origin: site } });
    expect(read.status).toBe(200);
    expect(read.headers.get("d1-bookmark")?.startsWith(`${home}.`)).toBe(true);
    const exposed = (read.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    expect(exposed.split(",")).toContain("d1-bookmark");
  });
});

describe("Server-Timing: the placement check rides the calls, no round trip of its own", () => {
  it("a slot search, a list and a booking keep their round trips (1, 1, 2); each shard call is checked once", async () => {
    const api = salon.ws.api;
    expect((await api("/services")).status).toBe(200);
    const slots = new URLSearchParams({
      service_uuid: salon.cut.uuid,
      range_start: "2030-03-05",
      range_end: "2030-03-05",
    });
    const measured = {
      "slot search": await api(`/locations/${salon.location.uuid}/time-slots?${slots}`),
      "bookings list": await api("/bookings"),
      "booking create": await api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: salon.staffers[0]?.uuid,
          reserved_on: at("12:00", "2030-03-05"),
          ...customer("+49 151 20000002"),
        },
      }),
    };
    const numbers = Object.fromEntries(
      Object.entries(measured).map(([name, res]) => {
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        return [
          name,
          {
            roundTrips: timing(res.headers, "d1"),
            statements: timing(res.headers, "d1-statements"),
            placementChecks: timing(res.headers, "d1-placement-checks"),
          },
        ];
      }),
    );
    console.log("Server-Timing of typical requests", JSON.stringify(numbers));
    expect(numbers["slot search"]?.roundTrips).toBe(1);
    expect(numbers["bookings list"]?.roundTrips).toBe(1);
    expect(numbers["booking create"]?.roundTrips).toBe(2);
    for (const [name, n] of Object.entries(numbers)) {
      // Every request read its shard; the key's own statement (the directory's) is not checked.
      expect(n.placementChecks, name).toBeGreaterThan(0);
      expect(n.placementChecks, name).toBeLessThan(n.statements);
    }
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadFeed, saveFeedToken } from "../../../src/bookings/queries/calendar-feeds";
import { createDb } from "../../../src/db/client";
import { bookings } from "../../../src/db/schema";
import type { Scope } from "../../../src/db/scope";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import { mondayIn, plusDays } from "../../helpers/waitlist";
import { shardOf } from "../../helpers/every-shard";
import { salonOn } from "../../helpers/same-shard";

/**
 * The calendar feed's queries called directly: a token saved only for the workspace's own
 * staffer (a new one replaces the old), and what one token reads: that staffer's bookings and
 * blocked spots starting in the window, by start, bounded by the cap with one more telling
 * there are more; nobody else's.
 */

/** The salon's own shard, where the app reads a feed its token names. */
const dbOf = async (salon: Salon) => createDb((await shardOf(salon.ws.id)).db);

const DAY = mondayIn(3);
const at = (hhmm: string, date = DAY) => Date.parse(`${date}T${hhmm}:00Z`);

let phone = 0;
async function book(salon: Salon, hhmm: string, staffer = 0, date = DAY) {
  phone += 1;
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: `${date}T${hhmm}:00Z`,
      staffer_uuid: salon.staffers[staffer]?.uuid,
      ...customer(`+49 151 3456${String(7000 + phone)}`),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

describe("saveFeedToken", () => {
  it("saves a token for the workspace's own staffer only, and a new token replaces the old", async () => {
    const salon = await createSalon(1);
    // On the same shard: the stranger's workspace is on the database written.
    const stranger = await salonOn(salon.ws.shard, 1);
    const db = await dbOf(salon);
    const mine: Scope = { db, workspaceId: salon.ws.id };
    const theirs: Scope = { db, workspaceId: stranger.ws.id };
    const staffer = salon.staffers[0]?.uuid ?? "";
    const window = { from: 0, to: at("00:00", plusDays(DAY, 400)), cap: 10 };

    expect(await saveFeedToken(theirs, staffer, `stolen-${staffer}`, 1)).toBe(false);
    expect(await loadFeed(db, `stolen-${staffer}`, window)).toBeNull();

    expect(await saveFeedToken(mine, staffer, `first-${staffer}`, 1)).toBe(true);
    expect((await loadFeed(db, `first-${staffer}`, window))?.staffer).toMatchObject({
      id: staffer,
      workspaceId: salon.ws.id,
    });
    expect(await saveFeedToken(mine, staffer, `second-${staffer}`, 2)).toBe(true);
    expect(await loadFeed(db, `first-${staffer}`, window)).toBeNull();
    expect(await loadFeed(db, `second-${staffer}`, window)).not.toBeNull();
  });
});

describe("loadFeed", () => {
  it("reads the staffer's bookings and blocked spots starting in the window, by start, up to the cap", async () => {
    const salon = await createSalon(2);
    const db = await dbOf(salon);
    const scope: Scope = { db, workspaceId: salon.ws.id };
    const staffer = salon.staffers[0]?.uuid ?? "";
    const late = await book(salon, "14:00");
    const early = await book(salon, "10:00");
    const noon = await book(salon, "12:00");
    await book(salon, "10:00", 1); // another staffer's
    await book(salon, "10:00", 0, plusDays(DAY, 1)); // the day after the window
    const spot = await salon.ws.api(`/staffers/${staffer}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: `${DAY}T08:00:00Z`,
        ends_at: `${DAY}T09:00:00Z`,
        comment: "Training",
      },
    });
    expect(spot.status, JSON.stringify(spot.body)).toBe(201);
    await db.update(bookings).set({ isCanceled: true }).where(eq(bookings.id, noon));
    const token = `feed-${staffer}`;
    expect(await saveFeedToken(scope, staffer, token, 1)).toBe(true);

    const day = { from: at("00:00"), to: at("00:00", plusDays(DAY, 1)) };
    const feed = await loadFeed(db, token, { ...day, cap: 10 });
    expect(feed?.bookings.map((b) => b.id)).toEqual([early, noon, late]);
    expect(feed?.bookings.map((b) => b.isCanceled)).toEqual([false, true, false]);
    expect(feed?.bookings[0]).toMatchObject({
      startsAt: at("10:00"),
      serviceNames: ["Haircut"],
      customerFirstName: "Anna",
      locationName: salon.location.name,
    });
    expect(feed?.blocked).toEqual([
      expect.objectContaining({
        startsAt: at("08:00"),
        endsAt: at("09:00"),
        comment: "Training",
      }),
    ]);
    expect(feed?.truncated).toBe(false);

    const capped = await loadFeed(db, token, { ...day, cap: 2 });
    expect(capped?.bookings.map((b) => b.id)).toEqual([early, noon]);
    expect(capped?.truncated).toBe(true);

    // The window's end is exclusive, its start inclusive.
    const fromTen = await loadFeed(db, token, { from: at("10:00"), to: at("14:00"), cap: 10 });
    expect(fromTen?.bookings.map((b) => b.id)).toEqual([early, noon]);
    expect(fromTen?.blocked).toEqual([]);
  });
});

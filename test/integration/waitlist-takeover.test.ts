import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createMessagingSalon } from "../helpers/messages";
import { customer, type Salon } from "../helpers/salon";
import { joined, local, offered, runDesk, WAIT_DAY } from "../helpers/waitlist";

/**
 * Staff taking over a widget's hold end it in their own batch; the hold's
 * time nobody books then is freed for the waitlist, and the location's desk
 * is woken for it at once (not only by the cron's sweep of overdue time).
 */

vi.setConfig({ testTimeout: 30_000 });
let salon: Salon;
let pk: Client;

beforeAll(async () => {
  ({ salon, pk } = await createMessagingSalon(1));
});

describe("a publishable hold taken over by staff", () => {
  it("the rest of its time goes to the waiting entry at once", async () => {
    const staffer = salon.staffers[0]?.uuid ?? "";
    // Only 10:00–12:00 is workable that day.
    for (const [from, to] of [
      ["09:00", "10:00"],
      ["12:00", "18:00"],
    ] as const) {
      const spot = await salon.ws.api(`/staffers/${staffer}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          starts_at: local(WAIT_DAY, from),
          ends_at: local(WAIT_DAY, to),
        },
      });
      expect(spot.status, JSON.stringify(spot.body)).toBe(201);
    }
    // A visitor holds 10:00–11:30; the 30 minutes after it fit no cut (an hour with its pause).
    const visitor = (await createPublishableKey(salon.ws)).api;
    const hold = await visitor("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: local(WAIT_DAY, "10:00"),
            services: [{ service_uuid: salon.colour.uuid, staffer_uuid: staffer }],
          },
        ],
      },
    });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const id = await joined(salon, pk);
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");

    // The front desk books a cut at 10:00 over the hold: 11:00–12:00 is free now.
    const staff = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staffer,
        reserved_on: local(WAIT_DAY, "10:00"),
        ...customer("+49 151 80000029"),
      },
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    const entry = await offered(salon, id);
    expect(entry.offer.start).toBe(local(WAIT_DAY, "11:00"));
  });
});

import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RECHECK_MS } from "../../src/messages/delivery/clock";
import { deliverCreated } from "../../src/messages/delivery/wake-up";
import { scheduleWakeUp } from "../../src/messages/object/client";
import worker from "../../src/index";
import { createWorkspace } from "../helpers/factory";
import { admin } from "../helpers/http";
import { at, createSalon, customer } from "../helpers/salon";
import { insertMessage, readMessage, until } from "../helpers/messages";
import { everyShard } from "../helpers/every-shard";

/**
 * Reminders come due with no outside trigger: each workspace's MessageClock
 * (a Durable Object alarm) enqueues them, and the real MESSAGE_QUEUE consumer
 * of the test runtime delivers them (the `log` provider: nothing configured).
 */

const clockOf = (workspaceId: string) => env.MESSAGE_CLOCKS.getByName(workspaceId);

const alarmOf = (workspaceId: string) =>
  runInDurableObject(clockOf(workspaceId), (_instance, state) => state.storage.getAlarm());

const sent = (id: string) => async () => {
  const row = await readMessage(id);
  return row.status === "sent" && row;
};

describe("the message clock", () => {
  it("its alarm enqueues a due reminder, which is sent", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, {
      kind: "booking-reminder",
      scheduled_for: Date.now() - 1_000,
    });
    // Woken for later, so only the test runs the alarm now.
    await scheduleWakeUp(env, ws.id, Date.now() + 3600_000);
    expect(await runDurableObjectAlarm(clockOf(ws.id))).toBe(true);
    const row = await until(sent(id));
    expect(row).toMatchObject({ provider: "log", attempts: 1, kind: "booking-reminder" });
  });

  it("fires on its own on time for a reminder a moment away", async () => {
    const ws = await createWorkspace();
    const due = Date.now() + 1_500;
    const id = await insertMessage(ws.id, { kind: "booking-reminder", scheduled_for: due });
    await scheduleWakeUp(env, ws.id, due);
    const row = await until(sent(id), 20_000);
    expect(row.sent_at).toBeGreaterThanOrEqual(due);
    expect((row.sent_at ?? 0) - due).toBeLessThan(60_000);
  }, 30_000);

  it("sets itself for the next reminder, and never later than a wake-up asks", async () => {
    const ws = await createWorkspace();
    const now = Date.now();
    const first = await insertMessage(ws.id, { scheduled_for: now - 1 });
    await insertMessage(ws.id, { scheduled_for: now + 2 * 3600_000 });
    await insertMessage(ws.id, { scheduled_for: now + 5 * 3600_000 });
    await scheduleWakeUp(env, ws.id, now + 3 * 3600_000);
    expect(await alarmOf(ws.id)).toBe(now + 3 * 3600_000);
    // An earlier wake-up brings it forward; a later one leaves it.
    await scheduleWakeUp(env, ws.id, now + 4 * 3600_000);
    expect(await alarmOf(ws.id)).toBe(now + 3 * 3600_000);
    await scheduleWakeUp(env, ws.id, now + 1 * 3600_000);
    expect(await alarmOf(ws.id)).toBe(now + 1 * 3600_000);
    await runDurableObjectAlarm(clockOf(ws.id));
    await until(sent(first));
    // It enqueued one, so it looks again within RECHECK_MS; nothing sooner is scheduled.
    const next = await alarmOf(ws.id);
    expect(next).toBeGreaterThan(now);
    expect(next).toBeLessThanOrEqual(Date.now() + RECHECK_MS);
    // With nothing due it sets itself for the next reminder.
    await runDurableObjectAlarm(clockOf(ws.id));
    expect(await alarmOf(ws.id)).toBe(now + 2 * 3600_000);
  });

  it("sends only its own workspace's messages", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const ma = await insertMessage(a.id, { scheduled_for: Date.now() - 1 });
    const mb = await insertMessage(b.id, { scheduled_for: Date.now() - 1 });
    await scheduleWakeUp(env, a.id, Date.now() + 3600_000);
    await runDurableObjectAlarm(clockOf(a.id));
    await until(sent(ma));
    // Give b's message the time a's took, and more: nobody enqueued it.
    await new Promise((r) => setTimeout(r, 500));
    expect((await readMessage(mb)).status).toBe("scheduled");
  });

  it("a canceled reminder is not sent", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, { status: "canceled", scheduled_for: Date.now() - 1 });
    await scheduleWakeUp(env, ws.id, Date.now() + 3600_000);
    await runDurableObjectAlarm(clockOf(ws.id));
    expect(await alarmOf(ws.id)).toBeNull();
    expect((await readMessage(id)).status).toBe("canceled");
  });
});

describe("after a write", () => {
  it("enqueues the messages it created that are due and wakes the clock for the rest", async () => {
    const ws = await createWorkspace();
    const since = Date.now();
    const now = await insertMessage(ws.id);
    const reminder = await insertMessage(ws.id, { scheduled_for: since + 2 * 3600_000 });
    const older = await insertMessage(ws.id, {
      created_at: since - 10_000,
      scheduled_for: since + 3600_000,
    });
    // The write reports what it created: `now` and `reminder` (not `older`, an earlier write's).
    await deliverCreated(env, ws.id, [
      { id: now, dueAt: since },
      { id: reminder, dueAt: since + 2 * 3600_000 },
    ]);
    await until(sent(now));
    // Woken for the write's own reminder, not for a message an earlier write scheduled.
    expect(await alarmOf(ws.id)).toBe(since + 2 * 3600_000);
    expect((await readMessage(reminder)).status).toBe("scheduled");
    expect((await readMessage(older)).status).toBe("scheduled");
  });
});

describe("a public API write", () => {
  it("hands the messages written during it to the queue once it has answered", async () => {
    // A booking's write creates its confirmation; the write says so, nothing reads it back.
    const salon = await createSalon();
    const settings = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
      method: "PUT",
      body: {
        email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
        sms: { enabled: false },
        reminders: [],
        templates: {},
      },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: at("10:00"),
        ...customer(),
        customer_email: "ada@example.com",
      },
    });
    expect(res.status).toBe(201);
    const row = await everyShard
      .prepare("select id from messages where booking_id = ? and kind = 'booking-confirmation'")
      .bind(res.body.uuid)
      .first<{ id: string }>();
    const id = row?.id ?? "";
    await until(sent(id));
  });

  it("a refused write hands nothing over", async () => {
    const ws = await createWorkspace();
    const id = await insertMessage(ws.id, { created_at: Date.now() + 60_000 });
    const res = await ws.api("/webhooks", { method: "POST", body: { url: "not a url" } });
    expect(res.status).toBe(422);
    await new Promise((r) => setTimeout(r, 500));
    expect((await readMessage(id)).status).toBe("scheduled");
  });
});

describe("the cron sweep", () => {
  it("enqueues messages due for over a minute that nobody enqueued", async () => {
    const ws = await createWorkspace();
    const stale = await insertMessage(ws.id, { scheduled_for: Date.now() - 120_000 });
    const fresh = await insertMessage(ws.id, { scheduled_for: Date.now() - 1_000 });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await until(sent(stale));
    // The last minute is its clock's and its write's.
    expect((await readMessage(fresh)).status).toBe("scheduled");
  });
});

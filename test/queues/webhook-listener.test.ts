import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eventListener, listenToEventsWith } from "../../src/webhooks/event-listener";
import { createWorkspace } from "../helpers/factory";
import { until } from "../helpers/messages";
import { consume, event, insertEvents } from "../helpers/queue";

/*
 * The event listener (Reserve with Google's, installed by src/app/app.ts) runs beside the
 * webhooks' fan-out of every event: whatever it does, customers' webhooks must not pay for it.
 */

const RECEIVER = "https://listener-receiver.example.com";
let received: string[] = [];
const installed = eventListener();

beforeEach(() => {
  received = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(RECEIVER)) return real(input, init);
    received.push(new URL(request.url).pathname);
    return new Response("ok");
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  listenToEventsWith(installed);
});

describe("the event listener beside the webhooks' fan-out", () => {
  it("cannot cost a webhook delivery: a listener that throws is logged, the event acked and its webhooks delivered", async () => {
    const ws = await createWorkspace();
    const hook = await ws.api("/webhooks", {
      method: "POST",
      body: { url: `${RECEIVER}/hook`, events: ["booking-created"] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const heard: string[] = [];
    listenToEventsWith((_env, e) => {
      heard.push(e.id);
      return Promise.reject(new Error("directory unavailable"));
    });
    const [eventId = ""] = await insertEvents(ws.id, "booking-created", 1, { handedOver: true });

    const outcome = await consume([{ id: "fan-out", body: event(eventId) }]);
    expect(outcome).toMatchObject({ explicitAcks: ["fan-out"], retryMessages: [] });
    // The listener was asked (after the fan-out), and the webhook's delivery went out regardless.
    expect(heard).toEqual([eventId]);
    await until(async () => received.includes("/hook"));
  });
});

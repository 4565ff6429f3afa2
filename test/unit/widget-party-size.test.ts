import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "../../widget/api";
import { book, hold, searchMonth } from "../../widget/flow";

/** A client that records what the widget sends and answers as given. */
function recording(answers: { get?: unknown; post?: unknown }) {
  const sent: { path: string; body?: unknown }[] = [];
  const client: Client = {
    get: <T>(path: string) => {
      sent.push({ path });
      return Promise.resolve(answers.get as T);
    },
    post: <T>(path: string, body: unknown) => {
      sent.push({ path, body });
      return Promise.resolve(answers.post as T);
    },
    del: () => Promise.resolve(),
  };
  return { client, sent };
}

const party = { location: "l", services: ["yoga"], staffer: "", zone: "UTC", seats: { yoga: 3 } };
const slot = { start: "2030-03-04T09:00:00Z" };
const customer = {
  first_name: "Anna",
  last_name: "",
  middle_name: "",
  phone: "+49 151 23456789",
  phone_e164: "+4915123456789",
  email: "",
  comment: "",
};
const form = {
  customer_email: "optional",
  customer_last_name: "optional",
  customer_middle_name: "optional",
  booking_comment: "optional",
} as const;

// The widget runs in a browser; Node 20 has no navigator.
beforeAll(() => {
  vi.stubGlobal("navigator", { language: "en-GB" });
});

describe("widget party size (group services)", () => {
  it("lists only starts with enough seats left for the party", async () => {
    const { client } = recording({
      get: {
        timezone: "UTC",
        dates: [
          {
            date: "2030-03-04",
            slots: [
              { start: "09:00", price_formatted: "", quantity: 2 },
              { start: "10:00", price_formatted: "", quantity: 3 },
              { start: "11:00", price_formatted: "", quantity: 5 },
            ],
          },
        ],
      },
    });
    const days = await searchMonth(client, party, "2030-03", "2030-03-01");
    expect((days.get("2030-03-04") ?? []).map((s) => s.start)).toEqual([
      "2030-03-04T10:00:00Z",
      "2030-03-04T11:00:00Z",
    ]);
  });

  it("holds and books the party's seats as quantity", async () => {
    const { client, sent } = recording({ post: { uuid: "r", expires_at: "" } });
    await hold(client, party, slot);
    await book(client, party, slot, null, customer, form);
    expect(sent[0]?.body).toMatchObject({
      items: [{ services: [{ service_uuid: "yoga", quantity: 3 }] }],
    });
    expect(sent[1]?.body).toMatchObject({ service_uuid: "yoga", quantity: 3 });
  });

  it("sends no quantity for a party of one", async () => {
    const { client, sent } = recording({ post: { uuid: "r", expires_at: "" } });
    await book(client, { ...party, seats: {} }, slot, null, customer, form);
    expect(sent[0]?.body).not.toHaveProperty("quantity");
  });
});

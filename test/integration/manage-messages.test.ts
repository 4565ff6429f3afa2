import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC, send } from "../helpers/http";
import { listedMessages, tokenIn, writtenToGo } from "../helpers/messages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The path a customer takes: the confirmation carries the manage link, and a
 * change through that link tells the customer as any change of theirs does.
 */
let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

let week = 0;
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2031, 4, 5) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

let phones = 0;
const someone = () => {
  phones += 1;
  return customer(`+49 151 ${String(40_000_000 + phones)}`);
};

interface Message {
  kind: string;
  status: string;
  body: string;
  scheduled_for: string;
}

const messagesOf = (bookingId: string) => listedMessages<Message>(salon.ws.api, bookingId);

/** Each message's kind and status, a confirmation or notice already sent counted as written to go. */
const statuses = (list: Message[]) => list.map((m) => [m.kind, writtenToGo(m.status)]);

const viaLink = (path: string, body: unknown) =>
  send(`${PUBLIC}/manage/${path}`, {
    method: "POST",
    body,
    headers: { "cf-connecting-ip": "203.0.113.77" },
  });

async function bookWithLink(date: string) {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[0]?.uuid,
      reserved_on: at("09:00", date),
      ...someone(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [confirmation] = await messagesOf(res.body.uuid);
  expect(confirmation?.kind).toBe("booking-confirmation");
  return { id: res.body.uuid as string, token: tokenIn(confirmation?.body ?? "") };
}

describe("messages of a change through the manage link", () => {
  it("the confirmation's link moves the booking: the customer is told, the reminder moves", async () => {
    const date = nextMonday();
    const { id, token } = await bookWithLink(date);
    const moved = await viaLink(`${token}/reschedule`, { reserved_on: at("12:00", date) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const list = await messagesOf(id);
    expect(statuses(list)).toEqual([
      ["booking-confirmation", "scheduled"],
      ["booking-reminder", "scheduled"],
      ["booking-rescheduled", "scheduled"],
    ]);
    const reminder = list.find((m) => m.kind === "booking-reminder");
    expect(reminder?.scheduled_for).toBe(
      new Date(Date.parse(at("12:00", date)) - 86_400_000).toISOString().replace(".000", ""),
    );
    // The notice carries a link that still opens the booking.
    const notice = list.find((m) => m.kind === "booking-rescheduled");
    const again = await send(`${PUBLIC}/manage/${tokenIn(notice?.body ?? "")}`, {
      headers: { "cf-connecting-ip": "203.0.113.78" },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("the confirmation's link cancels: the customer is told, the reminder is canceled", async () => {
    const { id, token } = await bookWithLink(nextMonday());
    const canceled = await viaLink(`${token}/cancel`, {});
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(statuses(await messagesOf(id))).toEqual([
      ["booking-confirmation", "scheduled"],
      ["booking-reminder", "canceled"],
      ["booking-canceled", "scheduled"],
    ]);
  });
});

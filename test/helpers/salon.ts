import { expect } from "vitest";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "./factory";

/** Monday 2030-03-04 in Europe/Berlin (UTC+1 then): 09:00 local is 08:00Z. */
export const MONDAY = "2030-03-04";
export const at = (hhmm: string, date = MONDAY) => `${date}T${hhmm}:00Z`;

export interface Salon {
  ws: TestWorkspace;
  location: { uuid: string; name: string; timezone: string };
  staffers: { uuid: string }[];
  cut: { uuid: string; price: number };
  colour: { uuid: string; price: number };
}

/** A workspace with one Berlin location, three staffers working Mon–Fri 09–18, and two services. */
export async function createSalon(staffCount = 3): Promise<Salon> {
  const ws = await createWorkspace();
  const location = await createLocation(ws, { timezone: "Europe/Berlin" });
  const staffers = [];
  for (let i = 0; i < staffCount; i++) {
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: WEEKDAYS_9_TO_18(location.uuid),
      }),
    );
  }
  const cut = await ws.api("/services", {
    method: "POST",
    body: { name: "Haircut", duration: 45, price: 3500, is_pause: true, pause: 15 },
  });
  expect(cut.status, JSON.stringify(cut.body)).toBe(201);
  const colour = await ws.api("/services", {
    method: "POST",
    body: { name: "Colouring", duration: 90, price: 8900, price_discount: 7900 },
  });
  expect(colour.status, JSON.stringify(colour.body)).toBe(201);
  return { ws, location, staffers, cut: cut.body, colour: colour.body };
}

export const customer = (phone = "+49 151 23456789") => ({
  customer_phone: phone,
  customer_first_name: "Anna",
  customer_last_name: "Berg",
  customer_email: "anna@example.com",
});

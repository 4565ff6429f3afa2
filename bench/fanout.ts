import { adminPost, createOpenSalon } from "./open-salon";
import { type DevServer, startDevServer, withDevServer } from "./server";

/**
 * `npm run bench -- --fanout`: what one request costs in calendar calls and
 * D1 statements at the maxima the API accepts, read from Server-Timing
 * (Cloudflare counts both per invocation; the API bounds them at 100
 * calendar calls and 100 statements per batch). Prints, per request:
 * - calendar: calls one after another (calls in flight together count once);
 * - calendar-total: every call, the confirms after the answer included;
 * - calendars: staffer and unit calendars it touched;
 * - d1 round trips and d1 statements.
 */

interface Row {
  name: string;
  status: number;
  d1: string;
  statements: string;
  calendar: string;
  total: string;
  calendars: string;
}

const read = (timing: string, re: RegExp) => re.exec(timing)?.[1] ?? "n/a";

function rowOf(name: string, res: Response): Row {
  const t = res.headers.get("server-timing") ?? "";
  return {
    name,
    status: res.status,
    d1: read(t, /d1;dur=[\d.]+;desc="(\d+) round trips"/),
    statements: read(t, /d1-statements;desc="(\d+)"/),
    calendar: read(t, /calendar;dur=[\d.]+;desc="(\d+) calls"/),
    total: read(t, /calendar-total;desc="(\d+) calls"/),
    calendars: read(t, /calendars;desc="(\d+)"/),
  };
}

export async function runFanoutBench({
  max: MAX = 10,
  server: given,
}: {
  /** Staffers, services, rooms and items of the largest requests (10: the API's maxima). */
  max?: number;
  server?: DevServer;
} = {}): Promise<void> {
  await withDevServer(
    given,
    () => startDevServer(8798),
    async (server) => {
      const salon = await createOpenSalon(server.base, { staffers: MAX, slotStep: 15 });
      const headers = {
        authorization: `Bearer ${salon.apiKey}`,
        workspace: salon.workspaceId,
        "content-type": "application/json",
      };
      const api = (path: string, method = "GET", body?: unknown) =>
        fetch(`${server.base}/api/public/v2${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const created = async (path: string, body: unknown) => {
        const res = await api(path, "POST", body);
        if (res.status !== 201) throw new Error(`${path} → ${res.status}: ${await res.text()}`);
        return (await res.json()) as { uuid: string };
      };
      const resource = (name: string, quantity: number) =>
        adminPost(server.base, `/workspaces/${salon.workspaceId}/resources`, {
          location_uuid: salon.location,
          name,
          quantity,
        }) as Promise<{ uuid: string }>;

      // Ten one-unit rooms (every service of a cart takes the same unit of each) and ten
      // resources of ten units (requests at one start spread over them).
      const rooms = [];
      const basins = [];
      for (let i = 0; i < MAX; i++) {
        rooms.push(await resource(`Room ${i}`, 1));
        basins.push(await resource(`Basins ${i}`, MAX));
      }
      const plain = [];
      const roomy = [];
      for (let i = 0; i < MAX; i++) {
        plain.push(await created("/services", { name: `Step ${i}`, duration: 15, price: 1000 }));
        roomy.push(
          await created("/services", {
            name: `Room step ${i}`,
            duration: 15,
            price: 1000,
            resource_uuids: rooms.map((r) => r.uuid),
          }),
        );
      }
      const wash = await created("/services", {
        name: "Wash",
        duration: 30,
        price: 900,
        resource_uuids: basins.map((r) => r.uuid),
      });

      let week = 0;
      const day = (offset: number) =>
        new Date(Date.UTC(2031, 0, 6) + offset * 86_400_000).toISOString().slice(0, 10);
      const tenByTen = (services: { uuid: string }[]) => {
        const first = 7 * week++;
        return Array.from({ length: MAX }, (_, k) => ({
          datetime_start: `${day(first + Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
          services: services.map((s, j) => ({
            service_uuid: s.uuid,
            staffer_uuid: salon.staffers[j],
          })),
        }));
      };
      const customer = { customer_phone: "+4915123456789", customer_first_name: "Fan" };
      const cart = (items: unknown) =>
        api("/bookings/cart", "POST", { location_uuid: salon.location, items, ...customer });
      const reserve = (items: unknown) =>
        api("/reservations", "POST", { location_uuid: salon.location, items });

      const rows: Row[] = [];
      const n = `${MAX}×${MAX}`;
      rows.push(rowOf(`cart ${n}`, await cart(tenByTen(plain))));
      rows.push(rowOf(`reservation ${n}`, await reserve(tenByTen(plain))));
      const roomyCart = await cart(tenByTen(roomy));
      rows.push(rowOf(`cart ${n}, ${MAX} resources each`, roomyCart));
      rows.push(rowOf(`reservation ${n}, ${MAX} resources`, await reserve(tenByTen(roomy))));
      const booking = (
        (await roomyCart.json()) as { bookings: { uuid: string; start_time: string }[] }
      ).bookings[0];
      if (booking) {
        // From 08:00 to 15:00: clear of the day's 12:00 item, every service and unit moving.
        const moved = new Date(Date.parse(booking.start_time) + 7 * 3_600_000)
          .toISOString()
          .replace(".000Z", "Z");
        rows.push(
          rowOf(
            `reschedule ${MAX} services × ${MAX} res.`,
            await api(`/bookings/${booking.uuid}/reschedule`, "PUT", { reserved_on: moved }),
          ),
        );
      }
      // Five modest reservations at once on the same calendars: 4 services each, a staffer
      // and one unit of ten resources each, all at one start.
      const start = `${day(7 * week++)}T09:00:00Z`;
      const five = await Promise.all(
        Array.from({ length: 5 }, () =>
          reserve([
            {
              datetime_start: start,
              services: [0, 1, 2, 3].map(() => ({ service_uuid: wash.uuid })),
            },
          ]),
        ),
      );
      five.forEach((res, i) => rows.push(rowOf(`5 concurrent reservations #${i + 1}`, res)));

      console.log("Fan-out mode: calendar calls and D1 statements per request (wrangler dev)");
      console.log(
        "  request                             status   d1 trips   d1 stmts   calendar   calendar-total   calendars",
      );
      for (const r of rows) {
        console.log(
          `  ${r.name.padEnd(35)} ${String(r.status).padStart(6)}   ${r.d1.padStart(8)}   ${r.statements.padStart(8)}   ${r.calendar.padStart(8)}   ${r.total.padStart(14)}   ${r.calendars.padStart(9)}`,
        );
      }
      const totals = five.map((_, i) => Number(rows[rows.length - 5 + i]?.total ?? 0));
      console.log(
        `  five concurrent reservations: ${totals.reduce((a, b) => a + b, 0)} calendar calls in all`,
      );
    },
  );
}

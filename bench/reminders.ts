import { BENCH_ADMIN_TOKEN, createOpenSalon } from "./open-salon";
import { type DevServer, queryD1, startDevServer, withDevServer } from "./server";
import { percentile } from "./stats";

/**
 * `npm run bench -- --reminders`: how late a reminder is sent under
 * `wrangler dev` (what `npm start` runs), with nothing but the workspace's
 * MessageClock alarm to send it (no cron, no call from outside).
 *
 * 20 bookings, each with one e-mail reminder due 20 s to 2⅓ minutes from
 * now. A booking starts on the slot grid and minutes_before is whole minutes,
 * so a reminder always falls on a whole minute: the 20 come due on the next
 * two minute marks at least 20 s away, ten at a time (a
 * burst per mark, as a salon's reminders of one start time would be). The
 * notification settings are replaced before each booking, since a booking's
 * reminders are written with the settings of the moment it is made.
 * Then `GET /messages?kind=booking-reminder` is polled until all are `sent`
 * (or 3 minutes after the last is due), and each reminder's `sent_at −
 * scheduled_for` is its lateness. The API gives whole seconds, so the
 * milliseconds are read from the local D1 afterwards; the moment a poll first
 * saw each one `sent` is printed beside them (an upper bound, within a poll).
 */
const PORT = 8795;
const TIMEOUT_MS = 180_000;
const POLL_MS = 250;
const MINUTE = 60_000;
const SLOT_MIN = 5;

interface Message {
  uuid: string;
  booking_uuid: string | null;
  status: string;
  scheduled_for: string;
  sent_at: string | null;
  attempts: number;
  error: string | null;
}

/** `sent_at − scheduled_for` in ms of each reminder, from the local D1 (the API rounds to seconds). */
function latenessInD1(persist: string, shard: string): Map<string, number> {
  const [rows = []] = queryD1(
    persist,
    [
      "SELECT id, sent_at - scheduled_for AS late FROM messages WHERE kind = 'booking-reminder' AND sent_at IS NOT NULL",
    ],
    { database: shard },
  ) as { id: string; late: number }[][];
  return new Map(rows.map((r) => [r.id, r.late]));
}

async function call(base: string, path: string, init: RequestInit) {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** As `npm start` runs it: with a manage-link secret, so each reminder carries its link. */
export const REMINDERS_VARS = { MANAGE_TOKEN_SECRET: "bench-manage-token-secret" };

export async function runRemindersBench({
  count: COUNT = 20,
  leadMs: LEAD_MS = 20_000,
  server: given,
}: {
  /** Bookings, one reminder each, spread over two minute marks. */
  count?: number;
  /** The earliest a reminder may fall: the bookings and settings must be written before it. */
  leadMs?: number;
  /** A server started with REMINDERS_VARS; else its own. */
  server?: DevServer;
} = {}): Promise<void> {
  await withDevServer(
    given,
    () => startDevServer(PORT, REMINDERS_VARS),
    async (server) => {
      const { base } = server;
      const salon = await createOpenSalon(base, { staffers: 1, slotStep: SLOT_MIN });
      const ws = salon.workspaceId;
      const headers = {
        authorization: `Bearer ${salon.apiKey}`,
        workspace: ws,
        "content-type": "application/json",
      };
      const api = (path: string, method = "GET", body?: unknown) =>
        call(base, `/api/public/v2${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const setReminder = (minutesBefore: number) =>
        call(base, `/api/admin/v1/workspaces/${ws}/notification-settings`, {
          method: "PUT",
          headers: {
            authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({
            email: { enabled: true, from_name: "Bench", from_email: "" },
            sms: { enabled: false },
            reminders: [{ channel: "email", minutes_before: minutesBefore }],
            templates: {},
          }),
        });
      const service = await api("/services", "POST", {
        name: "Quick",
        duration: SLOT_MIN,
        price: 100,
      });

      // The bookings follow one another on the grid, from the next whole hour two hours on.
      const firstStart = Math.ceil((Date.now() + 2 * 60 * MINUTE) / (60 * MINUTE)) * 60 * MINUTE;
      // The first minute mark at least LEAD_MS away, and the one after it.
      const firstMark = Math.ceil((Date.now() + LEAD_MS) / MINUTE) * MINUTE;
      const marks = [firstMark, firstMark + MINUTE];
      const written: { booking: string; dueAt: number }[] = [];
      for (let i = 0; i < COUNT; i++) {
        const start = firstStart + i * SLOT_MIN * MINUTE;
        let dueAt = marks[i % marks.length] ?? firstMark;
        // Too close to be written in time: the next mark instead (it would not be created at all).
        while (dueAt - Date.now() < 3_000) dueAt += MINUTE;
        await setReminder((start - dueAt) / MINUTE);
        const booking = await api("/bookings", "POST", {
          location_uuid: salon.location,
          service_uuid: service.uuid,
          staffer_uuid: salon.staffers[0],
          reserved_on: new Date(start).toISOString().replace(".000Z", "Z"),
          customer_phone: `+49151${String(1_000_000 + i).padStart(8, "0")}`,
          customer_first_name: `R${i}`,
          customer_email: `r${i}@bench.example`,
        });
        written.push({ booking: booking.uuid as string, dueAt });
      }
      const lastDue = Math.max(...written.map((w) => w.dueAt));
      console.log(
        `Reminders: ${COUNT} bookings written; reminders due at ${[...new Set(written.map((w) => new Date(w.dueAt).toISOString()))].join(", ")} (the last ${Math.round((lastDue - Date.now()) / 1000)} s from now)`,
      );

      // One request in flight at a time: a poll every POLL_MS until all are sent or the timeout.
      const deadline = lastDue + TIMEOUT_MS;
      let reminders: Message[] = [];
      /** When a poll first saw each reminder sent (ms since the epoch). */
      const seenSent = new Map<string, number>();
      while (Date.now() < deadline) {
        const page = await api(`/messages?kind=booking-reminder&per_page=100`);
        const seenAt = Date.now();
        reminders = page.data as Message[];
        for (const m of reminders)
          if (m.status === "sent" && !seenSent.has(m.uuid)) seenSent.set(m.uuid, seenAt);
        const settled = reminders.filter((m) => m.status !== "scheduled").length;
        if (reminders.length >= COUNT && settled === reminders.length) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }

      const d1 = latenessInD1(server.persist, salon.shard);
      const late = (m: Message) => (m.status === "sent" ? (d1.get(m.uuid) ?? null) : null);
      const seen = (m: Message) => {
        const at = seenSent.get(m.uuid);
        return at === undefined ? null : at - Date.parse(m.scheduled_for);
      };
      console.log(
        "  booking                                scheduled_for          status   late ms  seen ms",
      );
      for (const m of reminders)
        console.log(
          `  ${String(m.booking_uuid).padEnd(38)} ${m.scheduled_for.padEnd(22)} ${m.status.padEnd(8)} ${String(late(m) ?? "-").padStart(7)}  ${String(seen(m) ?? "-").padStart(7)}${m.error ? `  ${m.error}` : ""}`,
        );
      const lateness = reminders.map(late).filter((v): v is number => v !== null);
      const sent = lateness.length;
      const result = {
        reminders: COUNT,
        written: reminders.length,
        sent,
        not_sent: COUNT - sent,
        median_ms: sent ? percentile(lateness, 50) : null,
        p95_ms: sent ? percentile(lateness, 95) : null,
        worst_ms: sent ? Math.max(...lateness) : null,
      };
      console.log(
        `  sent ${sent}/${COUNT}; sent_at − scheduled_for: median ${result.median_ms} ms, p95 ${result.p95_ms} ms, worst ${result.worst_ms} ms`,
      );
      console.log(JSON.stringify(result));
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runRemindersBench();

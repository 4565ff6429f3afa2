import { inject } from "vitest";

/** The test ICS server's base URL (test/setup/ics-server.ts). */
export const icsBase = () => inject("icsServer");

export interface Served {
  status?: number;
  body?: string;
  etag?: string;
  delayMs?: number;
  streamBytes?: number;
  headers?: Record<string, string>;
}

/** Makes the server answer `path` so from now on; returns the URL to give the API. */
export async function serve(path: string, served: Served): Promise<string> {
  const res = await fetch(`${icsBase()}/_set${path}`, {
    method: "PUT",
    body: JSON.stringify(served),
  });
  if (res.status !== 204) throw new Error(`ics server: ${res.status}`);
  return `${icsBase()}${path}`;
}

/** The If-None-Match of every request the server had at `path` since it was last set. */
export async function seen(path: string): Promise<{ ifNoneMatch: string | null }[]> {
  const res = await fetch(`${icsBase()}/_seen${path}`);
  return res.json();
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").slice(0, 15) + "Z";

/** A hand-written VCALENDAR of UTC events (CRLF, as RFC 5545 writes it). */
export function ics(
  events: { uid: string; start: number; end: number; extra?: string[] }[],
): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//external calendars//EN"];
  for (const e of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${e.uid}`,
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${stamp(e.start)}`,
      `DTEND:${stamp(e.end)}`,
      "SUMMARY:Private",
      ...(e.extra ?? []),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.join("\r\n")}\r\n`;
}

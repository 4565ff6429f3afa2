import { ADMIN_TOKEN } from "./server";

export interface Salon {
  base: string;
  workspace: string;
  location: string;
  /** Staff key: reads bookings and customers, books "as another client". */
  secretKey: string;
  /** The key the widget ships with: publishable (pk_…) for the server's own origin. */
  widgetKey: string;
  services: { haircut: string; beard: string };
  staffers: { mia: string; jonas: string };
  /** A second location whose services show and hide their duration and price (see SHOWROOM). */
  showroom: string;
}

/** The showroom's services: name, duration, price, and what each hides or how it prices. */
export const SHOWROOM = [
  { name: "Colour", duration: 90, price: 6000 },
  { name: "Consultation", duration: 30, price: 2500, is_duration_hidden: true },
  { name: "Perm", duration: 120, price: 9000, is_price_hidden: true },
  { name: "Surprise", duration: 60, price: 4000, is_duration_hidden: true, is_price_hidden: true },
  { name: "Balayage", duration: 150, price: 12000, starting_at: true },
  { name: "Fringe", duration: 15, price: 1000, price_discount: 800 },
] as const;

interface CallOptions {
  key?: string;
  workspace?: string;
  method?: string;
  body?: unknown;
}

/** One JSON call; throws with the status and body unless 2xx. */
export async function call<T>(base: string, path: string, opts: CallOptions = {}): Promise<T> {
  const res = await request(base, path, opts);
  const text = await res.text();
  if (!res.ok) throw new Error(`${opts.method ?? "GET"} ${path} → ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export function request(base: string, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${opts.key ?? ADMIN_TOKEN}` };
  if (opts.workspace) headers.workspace = opts.workspace;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  return fetch(`${base}${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
}

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** A salon through the management and public APIs, as an operator would set it up. */
export async function createSalon(base: string): Promise<Salon> {
  const admin = <T>(path: string, body?: unknown) =>
    call<T>(base, `/api/admin/v1${path}`, { method: "POST", body });
  const ws = await admin<{ uuid: string; api_key: string }>("/workspaces", {
    name: "Widget Salon",
    country: "DE",
    currency: "EUR",
    locale: "en-GB",
    timezone: "Europe/Berlin",
  });
  const loc = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: "Widget Salon Mitte",
    timezone: "Europe/Berlin",
    slot_step: 15,
  });
  // Open around the clock, so "tomorrow" has free times whatever the test machine's hour.
  const schedule = EVERY_DAY.map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "00:00",
    end: "24:00",
  }));
  const staffer = (first_name: string, last_name: string) =>
    admin<{ uuid: string }>(`/workspaces/${ws.uuid}/staffers`, {
      first_name,
      last_name,
      location_uuids: [loc.uuid],
      schedule,
    });
  const mia = await staffer("Mia", "Wagner");
  const jonas = await staffer("Jonas", "Becker");
  const service = (name: string, duration: number, price: number, extra = {}) =>
    call<{ uuid: string }>(base, "/api/public/v2/services", {
      key: ws.api_key,
      workspace: ws.uuid,
      method: "POST",
      body: { name, duration, price, ...extra },
    });
  const haircut = await service("Haircut", 45, 3500);
  const beard = await service("Beard trim", 20, 1500);
  // Bookable by staff only: the widget must not offer it.
  await service("Staff-only treatment", 30, 5000, { live_in_widget: false });
  // Made after the services above, which therefore are not offered there.
  const showroom = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: "Widget Salon Showroom",
    timezone: "Europe/Berlin",
  });
  for (const { name, duration, price, ...terms } of SHOWROOM)
    await service(name, duration, price, { ...terms, location_uuids: [showroom.uuid] });
  return {
    base,
    workspace: ws.uuid,
    location: loc.uuid,
    secretKey: ws.api_key,
    widgetKey: await widgetKey(base, ws.uuid),
    services: { haircut: haircut.uuid, beard: beard.uuid },
    staffers: { mia: mia.uuid, jonas: jonas.uuid },
    showroom: showroom.uuid,
  };
}

/**
 * A publishable key for the server's own origin. Each widget test takes its own: a key's
 * per-visitor rate limit would otherwise count every test's calls from this one address.
 */
export async function widgetKey(base: string, workspace: string): Promise<string> {
  const key = await call<{ api_key: string }>(
    base,
    `/api/admin/v1/workspaces/${workspace}/api-keys`,
    { method: "POST", body: { kind: "publishable", allowed_origins: [base] } },
  );
  if (!key.api_key.startsWith("pk_")) throw new Error("Expected a publishable key (pk_…).");
  return key.api_key;
}

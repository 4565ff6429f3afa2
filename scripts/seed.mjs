// Creates (once) a demo workspace through the management and public APIs, so
// the seed exercises the same code paths as any operator would.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const STATE_FILE = ".wrangler/demo-workspace.json";

async function call(baseUrl, path, { token, workspace, method = "GET", body } = {}) {
  const headers = { authorization: `Bearer ${token}` };
  if (workspace) headers.workspace = workspace;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return json;
}

const week = (locationId, days, start, end) =>
  days.map((weekday) => ({ location_uuid: locationId, weekday, start, end }));

async function createDemo(baseUrl, adminToken) {
  const admin = (path, body) =>
    call(baseUrl, `/api/admin/v1${path}`, { token: adminToken, method: "POST", body });
  const ws = await admin("/workspaces", {
    name: "Demo Salon",
    country: "DE",
    currency: "EUR",
    locale: "de-DE",
    timezone: "Europe/Berlin",
  });
  const id = ws.uuid;
  const location = await admin(`/workspaces/${id}/locations`, {
    name: "Demo Salon Mitte",
    timezone: "Europe/Berlin",
    slot_step: 15,
  });
  const loc = location.uuid;
  await admin(`/workspaces/${id}/staffers`, {
    first_name: "Mia",
    last_name: "Wagner",
    location_uuids: [loc],
    permissions: ["access-pos"],
    schedule: week(loc, [1, 2, 3, 4, 5], "09:00", "18:00"),
  });
  await admin(`/workspaces/${id}/staffers`, {
    first_name: "Jonas",
    last_name: "Becker",
    location_uuids: [loc],
    schedule: [
      ...week(loc, [2, 3, 4, 5], "10:00", "14:00"),
      ...week(loc, [2, 3, 4, 5], "15:00", "19:00"),
    ],
  });
  await admin(`/workspaces/${id}/staffers`, {
    first_name: "Lea",
    last_name: "Schmidt",
    location_uuids: [loc],
    schedule: week(loc, [1, 3, 5, 6], "08:00", "16:00"),
  });
  await admin(`/workspaces/${id}/accounts`, { location_uuid: loc, name: "Till", type: "cash" });
  await admin(`/workspaces/${id}/accounts`, {
    location_uuid: loc,
    name: "QR payments",
    type: "qr",
  });
  const hair = await admin(`/workspaces/${id}/categories`, { name: "Hair", kind: "service" });
  const care = await admin(`/workspaces/${id}/categories`, { name: "Hair care", kind: "good" });

  const pub = (path, body) =>
    call(baseUrl, `/api/public/v2${path}`, {
      token: ws.api_key,
      workspace: id,
      method: "POST",
      body,
    });
  await pub("/services", { name: "Haircut", duration: 45, price: 3500, category_uuid: hair.uuid });
  await pub("/services", {
    name: "Colouring",
    duration: 90,
    price: 8900,
    is_pause: true,
    pause: 15,
    category_uuid: hair.uuid,
  });
  await pub("/services", { name: "Beard trim", duration: 20, price: 1500, price_discount: 1200 });
  await pub("/goods", {
    name: "Repair shampoo 250 ml",
    article: "SH-250",
    is_payable: true,
    price: 1890,
    unit: "pcs",
    is_consumable: false,
    category_uuid: care.uuid,
    initial_stock: { is_set: true, location_uuid: loc, unit_price: 900, quantity: 24 },
  });
  return { workspaceId: id, apiKey: ws.api_key };
}

export async function ensureDemoWorkspace(baseUrl, adminToken) {
  if (existsSync(STATE_FILE)) {
    const saved = JSON.parse(readFileSync(STATE_FILE, "utf8"));
    try {
      await call(baseUrl, "/api/public/v2/locations", {
        token: saved.apiKey,
        workspace: saved.workspaceId,
      });
      return saved;
    } catch {
      // The local database was reset: seed again.
    }
  }
  const demo = await createDemo(baseUrl, adminToken);
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(STATE_FILE, JSON.stringify(demo, null, 2));
  return demo;
}

// Creates (once) a demo workspace through the management and public APIs, so
// the seed exercises the same code paths as any operator would.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

/** Where the demo workspace's credentials are kept, next to the local state they belong to. */
const stateFile = (stateDir) => `${stateDir}/demo-workspace.json`;

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
    // What the booking pages show as the salon's contact (and messages as {location_address}).
    address: { line1: "Torstraße 1", city: "Berlin", postal_code: "10119", country: "DE" },
    phone: "+493012345678",
  });
  const loc = location.uuid;
  // The salon's face on the widget, manage and offer pages.
  await call(baseUrl, `/api/admin/v1/workspaces/${id}`, {
    token: adminToken,
    method: "PATCH",
    body: { brand: { name: "Demo Salon", accent_color: "#8a3b12" } },
  });
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

/** A publishable key for the demo's widget, allowed from the local server's own origin. */
async function createPublishableKey(baseUrl, adminToken, workspaceId) {
  const key = await call(baseUrl, `/api/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: adminToken,
    method: "POST",
    body: { kind: "publishable", allowed_origins: [baseUrl] },
  });
  return key.api_key;
}

/**
 * The ids the README's examples use, looked up by name through the public API
 * on every start (so a demo seeded by an older version gets them too).
 */
async function demoIds(baseUrl, demo) {
  const list = async (path) =>
    (
      await call(baseUrl, `/api/public/v2${path}`, {
        token: demo.apiKey,
        workspace: demo.workspaceId,
      })
    ).data;
  const [locations, services, staffers, goods, accounts] = await Promise.all(
    ["/locations", "/services", "/staffers", "/goods", "/accounts"].map(list),
  );
  const named = (rows, field, value) => {
    const row = rows.find((r) => r[field] === value);
    if (!row)
      throw new Error(`the demo workspace has no ${value}; delete ${demo.stateDir} to reseed`);
    return row.uuid;
  };
  const mia = named(staffers, "first_name", "Mia");
  const till = named(accounts, "name", "Till");
  return {
    LOCATION: locations[0].uuid,
    SERVICE: named(services, "name", "Haircut"),
    OTHER_SERVICE: named(services, "name", "Beard trim"),
    STAFFER: mia,
    // Mia has access-pos: she can sell at the till.
    SELLER: mia,
    GOOD: named(goods, "name", "Repair shampoo 250 ml"),
    ACCOUNT: till,
    CASH_ACCOUNT: till,
  };
}

/**
 * The README's customer: Anna, found by her phone, with an e-mail address, so that the
 * examples' "what the customer was told" shows the messages her bookings write (e-mail is on
 * by default; SMS is off, and with no provider configured a message is recorded as sent with
 * provider `log`). Imported once, through the management API; a demo seeded before she had
 * an e-mail keeps its customer (delete the local state to reseed).
 */
export const DEMO_CUSTOMER = {
  first_name: "Anna",
  last_name: "Berg",
  phone: "+4915123456789",
  email: "anna@example.com",
};

async function ensureDemoCustomer(baseUrl, adminToken, demo) {
  const found = await call(
    baseUrl,
    `/api/public/v2/customers?phone=${encodeURIComponent(DEMO_CUSTOMER.phone)}`,
    { token: demo.apiKey, workspace: demo.workspaceId },
  );
  if (found.data.length > 0) return;
  await call(baseUrl, `/api/admin/v1/workspaces/${demo.workspaceId}/customers`, {
    token: adminToken,
    method: "POST",
    body: DEMO_CUSTOMER,
  });
}

async function works(baseUrl, token, workspace) {
  try {
    await call(baseUrl, "/api/public/v2/locations", { token, workspace });
    return true;
  } catch {
    return false;
  }
}

/**
 * The demo workspace of this local state (created once; reused while the
 * local database still knows its key), a publishable key for its widget, and
 * the ids the README's examples need.
 */
export async function ensureDemoWorkspace(baseUrl, adminToken, stateDir = ".wrangler") {
  const file = stateFile(stateDir);
  let demo = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
  if (!demo || !(await works(baseUrl, demo.apiKey, demo.workspaceId))) {
    // New, or the local database was reset: seed again.
    demo = await createDemo(baseUrl, adminToken);
  }
  if (!demo.publishableKey || !(await works(baseUrl, demo.publishableKey, demo.workspaceId))) {
    demo.publishableKey = await createPublishableKey(baseUrl, adminToken, demo.workspaceId);
  }
  await ensureDemoCustomer(baseUrl, adminToken, demo);
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, JSON.stringify(demo, null, 2));
  return { ...demo, ids: await demoIds(baseUrl, { ...demo, stateDir }) };
}

import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { createDb } from "../../src/db/client";
import { runBatch } from "../../src/db/client";
import { packages } from "../../src/db/schema";
import { issuePackages } from "../../src/packages/issue";
import { admin } from "./http";
import { shardOf } from "./every-shard";
import type { TestWorkspace } from "./factory";

/** A package template as the API answers it. */
export interface TestPackage {
  uuid: string;
  name: string;
  price: number;
  currency: string;
  credits: { service_uuids: string[]; count: number }[];
  valid_days: number;
  renews: { every: "month" } | null;
  live: boolean;
}

/** Creates a template through `POST /packages` (201 asserted). */
export async function createPackageTemplate(
  ws: TestWorkspace,
  body: Record<string, unknown>,
): Promise<TestPackage> {
  const res = await ws.api("/packages", {
    method: "POST",
    body: { name: "10 cuts", price: 30000, valid_days: 365, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TestPackage;
}

/**
 * A prepay service whose late cancel and no-show each cost its whole price
 * (`POST /services`, 201 asserted): the one a credit pays instead of a fee.
 */
export async function createExpressService(ws: TestWorkspace) {
  const res = await ws.api("/services", {
    method: "POST",
    body: {
      name: "Express",
      duration: 30,
      price: 1250,
      payment_policy: {
        mode: "prepay",
        late_cancel: { window_minutes: 1440, fee: { percent: 100 } },
        no_show_fee: { percent: 100 },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; price: number };
}

/** Imports a customer through the management API; answers its uuid. */
export async function createCustomer(ws: TestWorkspace, phone = "+49 151 23456789") {
  const res = await admin(`/workspaces/${ws.id}/customers`, {
    method: "POST",
    body: { first_name: "Anna", last_name: "Berg", phone },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

export interface DirectIssue {
  packageUuid: string;
  customerUuid: string;
  /** Units (one customer package each); default 1. */
  quantity?: number;
  /** When it was sold (ms): periods and expiry count from it; default now. */
  at?: number;
  /** What one unit was sold for; default the template's price. */
  price?: number;
  /** The saved card a membership renews with; without one it does not renew. */
  card?: { providerCustomer: string; paymentMethod: string };
  /** Default: a fresh id (the row names them, nothing checks them). */
  orderId?: string;
  locationId?: string;
}

/**
 * Issues customer packages straight into the workspace's shard with the app's
 * own `issuePackages` (rows, first-period credits, `package-issued` events), as
 * paying an order would: for reading, booking and renewing them in tests
 * without going through a sale. Answers the issued packages' uuids.
 */
export async function issueDirect(ws: TestWorkspace, issue: DirectIssue): Promise<string[]> {
  const db = createDb((await shardOf(ws.id)).db);
  const scope = { db, workspaceId: ws.id };
  const [template] = await db.select().from(packages).where(eq(packages.id, issue.packageUuid));
  if (!template) throw new Error(`no package ${issue.packageUuid}`);
  const orderId = issue.orderId ?? crypto.randomUUID();
  const units = Array.from({ length: issue.quantity ?? 1 }, () => ({
    template,
    orderId,
    orderLineId: crypto.randomUUID(),
    locationId: issue.locationId ?? crypto.randomUUID(),
    customerId: issue.customerUuid,
    price: issue.price ?? template.price,
    card: issue.card,
  }));
  const { records, statements } = issuePackages(scope, units, issue.at ?? Date.now());
  await runBatch(db, statements);
  return records.map((r) => r.pkg.id);
}

/** `issueDirect` of one unit: its uuid. */
export async function issueOne(ws: TestWorkspace, issue: Omit<DirectIssue, "quantity">) {
  const [id] = await issueDirect(ws, issue);
  if (!id) throw new Error("nothing issued");
  return id;
}

import { describe, expect, it } from "vitest";
import { createDb } from "../../../src/db/client";
import { paymentCheckouts, reservations } from "../../../src/db/schema";
import type { Scope } from "../../../src/db/scope";
import {
  findReservationWithCheckout,
  listLiveReservations,
} from "../../../src/calendar/queries/reservations";
import { createLocation, createWorkspace } from "../../helpers/factory";
import { shardOf } from "../../helpers/every-shard";
import { workspaceBeside } from "../../helpers/same-shard";

/**
 * A reservation's own read with its checkout (a left join on payment_checkouts),
 * called directly against D1: the checkout comes along when there is one, the
 * list keeps its filters, order and totals, and another workspace's rows (its
 * reservations, or a checkout row under another workspace) never come back.
 */

const NOW = Date.UTC(2030, 0, 7, 9);
const page = (perPage = 50, offset = 0) => ({ page: 1, perPage, offset });

type Tenant = { scope: Scope; location: string; shard: string };

/**
 * A workspace with a location, read and written on its own shard as the app does;
 * `beside` puts it on another's shard, where that one's rows are on the database read.
 */
async function tenant(beside?: Tenant): Promise<Tenant> {
  const ws = beside ? await workspaceBeside(beside) : await createWorkspace();
  const location = (await createLocation(ws)).uuid;
  const db = createDb((await shardOf(ws.id)).db);
  return { scope: { db, workspaceId: ws.id } satisfies Scope, location, shard: ws.shard };
}

const TERMS = {
  mode: "prepay" as const,
  amount_due_now: 1250,
  currency: "EUR",
  late_cancel: null,
  no_show_fee: null,
};

async function reservation(
  t: { scope: Scope; location: string },
  at: number,
  over: Partial<typeof reservations.$inferInsert> = {},
) {
  const row = {
    id: crypto.randomUUID(),
    workspaceId: t.scope.workspaceId,
    locationId: t.location,
    items: "[]",
    expiresAt: NOW + 600_000,
    releasedAt: null,
    createdAt: at,
    keyKind: "secret" as const,
    holder: null,
    payment: TERMS,
    ...over,
  };
  await t.scope.db.insert(reservations).values(row);
  return row.id;
}

const checkout = (
  scope: Scope,
  reservationId: string,
  status: "creating" | "open" | "complete" | "expired",
  bookingId: string | null = null,
) =>
  scope.db.insert(paymentCheckouts).values({
    reservationId,
    workspaceId: scope.workspaceId,
    status,
    terms: TERMS,
    customer: {},
    successUrl: "https://salon.example/ok",
    cancelUrl: "https://salon.example/back",
    expiresAt: NOW + 1_800_000,
    bookingId,
    createdAt: NOW,
    updatedAt: NOW,
  });

describe("findReservationWithCheckout", () => {
  it("reads the reservation with its checkout, or null without one; used and expired ones too", async () => {
    const t = await tenant();
    const booked = crypto.randomUUID();
    const paid = await reservation(t, NOW, { releasedAt: NOW, expiresAt: NOW - 1 });
    await checkout(t.scope, paid, "complete", booked);
    const plain = await reservation(t, NOW + 1, { payment: null });

    const withOne = await findReservationWithCheckout(t.scope, paid);
    expect(withOne?.row).toMatchObject({ id: paid, releasedAt: NOW, payment: TERMS });
    // The booking it names is not stored here: nothing to link.
    expect(withOne?.checkout).toEqual({ status: "complete", bookingId: booked, booked: null });
    const without = await findReservationWithCheckout(t.scope, plain);
    expect(without?.row).toMatchObject({ id: plain, payment: null });
    expect(without?.checkout).toBeNull();
    expect(await findReservationWithCheckout(t.scope, crypto.randomUUID())).toBeNull();
  });

  it("never reads another workspace's reservation, nor a checkout row of another workspace", async () => {
    const mine = await tenant();
    const theirs = await tenant(mine);
    const id = await reservation(mine, NOW);
    expect(await findReservationWithCheckout(theirs.scope, id)).toBeNull();
    // A checkout row under another workspace (never written so, but the join must not trust it).
    await checkout(theirs.scope, id, "open");
    expect((await findReservationWithCheckout(mine.scope, id))?.checkout).toBeNull();
  });
});

describe("listLiveReservations", () => {
  it("lists live reservations oldest first with their checkouts, counts them, pages them, and only the workspace's", async () => {
    const t = await tenant();
    const other = await tenant(t);
    const first = await reservation(t, NOW - 3);
    const second = await reservation(t, NOW - 2);
    const third = await reservation(t, NOW - 1);
    await reservation(t, NOW - 4, { releasedAt: NOW - 1 });
    await reservation(t, NOW - 5, { expiresAt: NOW });
    await reservation(other, NOW - 6);
    await checkout(t.scope, second, "creating");
    await checkout(t.scope, third, "open");

    const all = await listLiveReservations(t.scope, page(), {}, NOW);
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => [r.row.id, r.checkout?.status ?? null])).toEqual([
      [first, null],
      [second, "creating"],
      [third, "open"],
    ]);
    const tail = await listLiveReservations(t.scope, page(2, 2), {}, NOW);
    expect(tail.total).toBe(3);
    expect(tail.rows.map((r) => r.row.id)).toEqual([third]);
    const elsewhere = await listLiveReservations(
      t.scope,
      page(),
      { locationId: crypto.randomUUID() },
      NOW,
    );
    expect(elsewhere).toEqual({ rows: [], total: 0 });
  });
});

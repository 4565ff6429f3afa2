import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { BASE, d1RoundTrips, PUBLIC } from "../helpers/http";

let ws: TestWorkspace;
const names: string[] = [];

beforeAll(async () => {
  ws = await createWorkspace();
  for (let i = 0; i < 37; i++) {
    const name = `Branch ${String(i).padStart(2, "0")}`;
    names.push(name);
    await createLocation(ws, { name });
  }
});

const url = (query: string) => `${BASE}${PUBLIC}/locations${query}`;

describe("the pagination envelope", () => {
  it("defaults to 15 per page with the full envelope", async () => {
    const res = await ws.api("/locations");
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { name: string }) => l.name)).toEqual(names.slice(0, 15));
    expect(res.body.links).toEqual({
      first: url("?page=1"),
      last: url("?page=3"),
      prev: null,
      next: url("?page=2"),
    });
    expect(res.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      links: [
        { url: null, label: "« Previous", active: false },
        { url: url("?page=1"), label: "1", active: true },
        { url: url("?page=2"), label: "2", active: false },
        { url: url("?page=3"), label: "3", active: false },
        { url: url("?page=2"), label: "Next »", active: false },
      ],
      path: `${BASE}${PUBLIC}/locations`,
      per_page: 15,
      to: 15,
      total: 37,
    });
  });

  it("walks every item exactly once in a stable order", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await ws.api(`/locations?per_page=10&page=${page}`);
      seen.push(...res.body.data.map((l: { name: string }) => l.name));
      if (page === 4) {
        expect(res.body.links.next).toBeNull();
        expect(res.body.meta).toMatchObject({ from: 31, to: 37, last_page: 4 });
      }
    }
    expect(seen).toEqual(names);
  });

  it("keeps other query parameters in the links", async () => {
    const res = await ws.api("/locations?per_page=20&page=2");
    expect(res.body.links.prev).toBe(url("?per_page=20&page=1"));
    expect(res.body.meta.to).toBe(37);
  });

  it("accepts limit as an alias of per_page", async () => {
    const res = await ws.api("/locations?limit=5");
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta.per_page).toBe(5);
  });

  it("answers a page past the end with an empty page, not an error", async () => {
    const res = await ws.api("/locations?page=9");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({
      current_page: 9,
      from: null,
      to: null,
      total: 37,
      last_page: 3,
    });
    expect(res.body.links.next).toBeNull();
    expect(res.body.links.prev).toBe(url("?page=3"));
  });

  it.each([
    ["per_page=0", "per_page"],
    ["per_page=101", "per_page"],
    ["per_page=abc", "per_page"],
    ["per_page=-1", "per_page"],
    ["per_page=2.5", "per_page"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["limit=500", "limit"],
  ])("rejects %s with 422 on %s", async (query, field) => {
    const res = await ws.api(`/locations?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("allows the maximum of 100 and stays within 1 D1 round trip whatever the size", async () => {
    const res = await ws.api("/locations?per_page=100");
    expect(res.body.data).toHaveLength(37);
    // Count and page in one batch, the key check alongside it.
    expect(d1RoundTrips(res.headers)).toBe(1);
  });
});

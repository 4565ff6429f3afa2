import { describe, expect, it } from "vitest";
import { type Cell, cellOf, packRows } from "../../src/shards/rules/chunks";
import { decideMove } from "../../src/shards/rules/move-request";
import { CLEAN_GRACE_MS, cleanGrace, cleanWaitsUntil } from "../../src/shards/rules/clean-grace";

const SHARDS = ["SHARD_0", "SHARD_1", "SHARD_2"];

describe("decideMove", () => {
  it("starts a move to another known shard when none is under way", () => {
    expect(decideMove("SHARD_0", "SHARD_1", SHARDS, null)).toEqual({ kind: "start" });
    const done = { fromShard: "SHARD_1", toShard: "SHARD_0", status: "done" } as const;
    expect(decideMove("SHARD_0", "SHARD_1", SHARDS, done)).toEqual({ kind: "start" });
    const aborted = { ...done, status: "aborted" } as const;
    expect(decideMove("SHARD_0", "SHARD_1", SHARDS, aborted)).toEqual({ kind: "start" });
  });

  it("refuses a shard it does not know, the directory among them", () => {
    expect(decideMove("SHARD_0", "SHARD_9", SHARDS, null).kind).toBe("unknown_shard");
    expect(decideMove("DB", "DB", SHARDS, null).kind).toBe("unknown_shard");
  });

  it("refuses the shard it is on", () => {
    expect(decideMove("SHARD_1", "SHARD_1", SHARDS, null).kind).toBe("already_there");
  });

  it("answers a move under way: the same one as it stands, another refused", () => {
    for (const status of ["copying", "switching", "cleaning"] as const) {
      const move = { fromShard: "SHARD_0", toShard: "SHARD_1", status };
      // While cleaning, the directory says SHARD_1 already: still the same move, not "already there".
      expect(
        decideMove(status === "cleaning" ? "SHARD_1" : "SHARD_0", "SHARD_1", SHARDS, move).kind,
      ).toBe("same_move");
      expect(decideMove("SHARD_0", "SHARD_2", SHARDS, move)).toEqual({
        kind: "other_move",
        to: "SHARD_1",
      });
    }
  });
});

describe("packRows", () => {
  const rows = (n: number, width: number): Cell[][] =>
    Array.from({ length: n }, (_, i) => [i, "x".repeat(width), null]);

  it("keeps every row, in order, as JSON a statement expands", () => {
    const input = rows(1_000, 200);
    const packed = packRows(input, 10_000, 100);
    expect(packed.rows).toBe(1_000);
    const back = packed.statements.flatMap((s) => JSON.parse(s) as Cell[][]);
    expect(back).toEqual(input);
  });

  it("holds each statement under the byte bound, a row over it alone", () => {
    const packed = packRows(
      [...rows(50, 300), [1, "y".repeat(5_000), 2], ...rows(50, 300)],
      4_000,
      100,
    );
    const sizes = packed.statements.map((s) => new TextEncoder().encode(s).length);
    expect(sizes.filter((n) => n > 4_000)).toHaveLength(1);
    expect(packed.statements.find((s) => s.includes("yyyy"))).toMatch(/^\[\[1,"y+",2\]\]$/);
  });

  it("stops at the statement bound, answering how many rows it took", () => {
    const packed = packRows(rows(1_000, 900), 10_000, 3);
    expect(packed.statements).toHaveLength(3);
    const taken = packed.statements.flatMap((s) => JSON.parse(s) as Cell[][]);
    expect(taken).toEqual(rows(1_000, 900).slice(0, packed.rows));
    expect(packed.rows).toBeLessThan(1_000);
  });

  it("counts bytes, not characters", () => {
    const wide = Array.from({ length: 100 }, (): Cell[] => ["ü".repeat(100)]);
    for (const s of packRows(wide, 2_000, 100).statements) {
      expect(new TextEncoder().encode(s).length).toBeLessThanOrEqual(2_000);
    }
  });
});

describe("cellOf", () => {
  it("passes text, numbers and nulls, and refuses what JSON would change", () => {
    expect(cellOf("t", "c", "a")).toBe("a");
    expect(cellOf("t", "c", 1.5)).toBe(1.5);
    expect(cellOf("t", "c", null)).toBeNull();
    expect(() => cellOf("t", "c", new ArrayBuffer(2))).toThrow(/t\.c/);
  });
});

describe("the clean-up's grace after a switch", () => {
  it("waits until the grace after the switch is over, then goes on", () => {
    const switched = { tableIndex: 0, updatedAt: 1_000_000 };
    expect(cleanWaitsUntil(switched, 30_000, 1_000_000)).toBe(1_030_000);
    expect(cleanWaitsUntil(switched, 30_000, 1_029_999)).toBe(1_030_000);
    expect(cleanWaitsUntil(switched, 30_000, 1_030_000)).toBeNull();
    expect(cleanWaitsUntil(switched, 0, 1_000_000)).toBeNull();
  });

  it("never waits again once the deletes started", () => {
    expect(cleanWaitsUntil({ tableIndex: 3, updatedAt: 1_000_000 }, 30_000, 1_000_001)).toBeNull();
  });

  it("reads its setting as whole milliseconds, else 30 s", () => {
    expect(cleanGrace("0")).toBe(0);
    expect(cleanGrace("1500")).toBe(1500);
    expect(cleanGrace(undefined)).toBe(CLEAN_GRACE_MS);
    expect(cleanGrace("")).toBe(CLEAN_GRACE_MS);
    expect(cleanGrace("-1")).toBe(CLEAN_GRACE_MS);
    expect(cleanGrace("soon")).toBe(CLEAN_GRACE_MS);
    expect(CLEAN_GRACE_MS).toBe(30_000);
  });
});

import { describe, expect, it } from "vitest";
import { D1Counter, rowsBytes } from "../../src/db/d1-counter";

// `d1-bytes-returned` in Server-Timing: the size of the values D1 returned.
describe("bytes D1 returned", () => {
  it("counts text by its length, numbers as 8, blobs by their length, nulls as nothing", () => {
    expect(rowsBytes([{ id: "abc", at: 1_700_000_000_000, gone: null, blob: [1, 2, 3] }])).toBe(
      3 + 8 + 0 + 3,
    );
    // `raw()` rows are arrays of the same values.
    expect(rowsBytes([["abc", 1, null]])).toBe(11);
    expect(rowsBytes([])).toBe(0);
  });

  it("adds rows read from meta and bytes from results; first() and raw() add bytes only", () => {
    const counter = new D1Counter();
    counter.read({ results: [{ id: "abcd" }], meta: { rows_read: 5 } });
    counter.returnedRow({ id: "ab" });
    counter.returnedRows([["a", 2]]);
    expect(counter.rowsRead).toBe(5);
    expect(counter.bytesReturned).toBe(4 + 2 + 9);
  });
});

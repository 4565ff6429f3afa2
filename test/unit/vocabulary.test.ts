import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// One idea, one name (docs/decisions.md, "Vocabulary"): these spellings came back
// before, each as another name for something that already has one.

const ROOT = process.cwd();

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

const source = filesUnder("src").map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), "utf8"),
}));

/** `path:line` of every line of src that matches, except in the files allowed. */
function found(pattern: RegExp, allowed: string[] = []) {
  return source
    .filter((f) => !allowed.includes(f.path))
    .flatMap((f) =>
      f.text
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])),
    );
}

describe("one vocabulary in src", () => {
  it("end plus buffer is computed only by busyEnd / busyLength (src/platform/rules/duration.ts)", () => {
    expect(
      found(/buffer\w*\)?\s*\*\s*(MINUTE|60_?000)\b/i, [
        "src/platform/rules/duration.ts",
        // The same sum in SQL; the query says so next to it.
        "src/bookings/queries/booking-refs.ts",
      ]),
    ).toEqual([]);
    const refs = source.find((f) => f.path === "src/bookings/queries/booking-refs.ts");
    expect(refs?.text).toContain("busyEnd (src/platform/rules/duration.ts) in SQL");
  });

  it("a busy interval is a BusyInterval: its kinds are spelled out once", () => {
    expect(
      found(/"booking"\s*\|\s*"blocked"\s*\|\s*"held"/, ["src/calendar/rules/types.ts"]),
    ).toEqual([]);
    expect(found(/\{\s*start:\s*number;\s*end:\s*number;\s*kind/)).toEqual([]);
  });

  it("the calendar object is a Calendar, bound as CALENDARS", () => {
    expect(found(/\bStafferCalendar\b(?!Input)|STAFFER_CALENDAR/)).toEqual([]);
    const wrangler = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    expect(wrangler).toMatch(/name = "CALENDARS"\nclass_name = "Calendar"/);
    expect(wrangler).toContain('renamed_classes = [{ from = "StafferCalendar", to = "Calendar" }]');
  });

  it("`held` is a reservation's time, not a granted claim or a redeemed reservation", () => {
    expect(found(/\.held\b|\bheld\?\./)).toEqual([]);
  });

  it("`at` is an instant, not an entry's owner", () => {
    expect(found(/\btype At\b|\bat: At\b|\(at, /)).toEqual([]);
  });
});

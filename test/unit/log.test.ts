import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeError, log, redact } from "../../src/platform/log";

const KEY = `sk_0123456789abcdef_${"A".repeat(43)}`;
const PK = `pk_0123456789abcdef_${"b".repeat(43)}`;
const WHSEC = "whsec_Q7HUkyQ5WbSBPqUoEBlEZTU7qMKPb49I";

afterEach(() => {
  vi.restoreAllMocks();
});

function captured(run: () => void): string {
  const lines: string[] = [];
  for (const level of ["log", "warn", "error", "debug"] as const)
    vi.spyOn(console, level).mockImplementation((line: string) => void lines.push(line));
  run();
  return lines.join("\n");
}

describe("log redaction", () => {
  it("keeps a failed query's text and drops its parameters, in the message and the stack", () => {
    const d1 = new Error("D1_ERROR: UNIQUE constraint failed: webhooks.id");
    const failed = new DrizzleQueryError(
      'update "webhooks" set "secret" = ?, "headers" = ?',
      [WHSEC, '[{"name":"Authorization","value":"Token abc123"}]'],
      d1,
    );
    const out = captured(() => log("error", "unexpected error", { error: failed }));
    expect(out).toContain('Failed query: update \\"webhooks\\" set \\"secret\\" = ?');
    expect(out).toContain("UNIQUE constraint failed");
    expect(out).not.toContain("Q7HUkyQ5");
    expect(out).not.toContain("abc123");
    expect(out).not.toMatch(/params/);
  });

  it("strips a parameters tail from any error message, and down the cause chain", () => {
    const inner = new Error("Failed query: select 1\nparams: secret-value");
    const outer = new Error("wrapped", { cause: inner });
    expect(JSON.stringify(describeError(outer))).not.toContain("secret-value");
  });

  it("replaces anything shaped like an API key, a signing secret or a credential", () => {
    const text = `key ${KEY} and ${PK}, ${WHSEC}, Authorization: Bearer abc.def and Basic dXNlcjpwdw==`;
    const clean = redact(text);
    for (const secret of [KEY, PK, WHSEC, "abc.def", "dXNlcjpwdw=="])
      expect(clean).not.toContain(secret);
    expect(clean).toContain("Bearer [redacted]");
  });

  it("replaces a staffer's calendar feed token, wherever its URL appears", () => {
    const token = `feed_${"Zq9-_".repeat(8)}abc`;
    const url = `https://api.example/api/public/v2/feeds/${token}.ics`;
    const out = captured(() => log("error", `fetch ${url} failed`, { url, nested: { path: url } }));
    expect(out).not.toContain(token.slice(5));
    // The path rule takes the whole file name, the shape rule's leftovers with it.
    expect(out).toContain("feeds/[redacted]");
    // Column names that start alike are not tokens.
    expect(redact("select feed_starts_at")).toBe("select feed_starts_at");
  });

  it("cuts a keyless link's token out even when its separators are percent-encoded", () => {
    const token = "eyJ2IjozfQ.c2lnbmF0dXJl";
    for (const line of [
      `GET /v2/manage%2F${token}`,
      `GET /v2/waitlist-offers%2f${token}/book`,
      `GET /x?next=%2Fwidget%2Fmanage%3Ftoken%3D${token}`,
      `GET /x?next=%2Fwidget%2Fmanage%3Fa%3D1%26token%3D${token}%26b%3D2`,
      `GET /v2/manage/${token}`,
      `GET /widget/manage?token=${token}&lang=de`,
    ])
      expect(redact(line), line).not.toContain(token);
    expect(redact(`/w?token%3D${token}%26b%3D2`)).toBe("/w?token%3D[redacted]%26b%3D2");
  });

  it("replaces fields named like credentials at any depth", () => {
    const out = captured(() =>
      log("info", "x", {
        webhook: { secret: "s1", headers: [{ name: "X", value: "h1" }], url: "https://a.example" },
        params: ["p1"],
        authorization: "a1",
        api_key: "k1",
        token: "t1",
      }),
    );
    for (const secret of ["s1", "h1", "p1", "a1", "k1", "t1"]) expect(out).not.toContain(secret);
    expect(out).toContain("https://a.example");
  });
});

import { execFileSync } from "node:child_process";

/** Reads the running server's local D1, for stored fields no API response shows. */
export function queryD1<T>(persist: string, sql: string): T[] {
  const out = execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persist,
      "--json",
      "--command",
      sql,
    ],
    { encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  const parsed = JSON.parse(out) as { results: T[] }[];
  return parsed[0]?.results ?? [];
}

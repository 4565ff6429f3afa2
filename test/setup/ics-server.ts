import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of a local HTTP server serving the ICS texts the tests put there (see below). */
    icsServer: string;
  }
}

/**
 * What the server answers at one path, set by the test itself through
 * `PUT /_set/<path>` (JSON). `etag`: sent with a 200 and compared with
 * If-None-Match (a match is a 304). `delayMs`: waits before answering.
 * `streamBytes`: streams that many bytes of filler, chunked and without a
 * Content-Length (a calendar too big that does not say so).
 */
interface Served {
  status?: number;
  body?: string;
  etag?: string;
  delayMs?: number;
  streamBytes?: number;
  headers?: Record<string, string>;
}

/** A test's ICS server (test/helpers/ics-server.ts drives it): outside workerd, real TCP. */
export default async function setup(project: TestProject) {
  const served = new Map<string, Served>();
  const seen = new Map<string, { ifNoneMatch: string | null }[]>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "PUT" && url.pathname.startsWith("/_set/")) {
      req.setEncoding("utf8");
      let text = "";
      for await (const chunk of req) text += String(chunk);
      served.set(url.pathname.slice("/_set".length), JSON.parse(text) as Served);
      seen.delete(url.pathname.slice("/_set".length));
      res.writeHead(204).end();
      return;
    }
    if (url.pathname.startsWith("/_seen/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(seen.get(url.pathname.slice("/_seen".length)) ?? []));
      return;
    }
    const ifNoneMatch = req.headers["if-none-match"] ?? null;
    seen.set(url.pathname, [
      ...(seen.get(url.pathname) ?? []),
      { ifNoneMatch: typeof ifNoneMatch === "string" ? ifNoneMatch : null },
    ]);
    const s = served.get(url.pathname);
    if (!s) {
      res.writeHead(404).end();
      return;
    }
    if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
    if (s.etag && ifNoneMatch === s.etag) {
      res.writeHead(304, { etag: s.etag }).end();
      return;
    }
    const headers: Record<string, string> = { "content-type": "text/calendar", ...s.headers };
    if (s.etag) headers.etag = s.etag;
    if (s.streamBytes) {
      res.writeHead(s.status ?? 200, headers);
      const chunk = new TextEncoder().encode("X".repeat(64 * 1024));
      for (let sent = 0; sent < s.streamBytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      }
      res.end();
      return;
    }
    res.writeHead(s.status ?? 200, headers).end(s.body ?? "");
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("icsServer", `http://127.0.0.1:${port}`);
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

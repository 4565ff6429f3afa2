import { ICS_LIMITS } from "./rules";
import { webhookUrlProblem } from "../platform/rules/url";
import { ApiError } from "../platform/errors";

/** What fetching an external calendar gave: its text, or "unchanged since this ETag". */
export type Fetched = { changed: true; text: string; etag: string | null } | { changed: false };

export interface FetchOptions {
  /** The ETag of the last text read: a 304 answer keeps the busy time. */
  etag: string | null;
  timeoutMs: number;
  allowPrivate: boolean;
  maxBytes?: number;
}

/** Redirects followed at most, each judged by the URL guard like the first URL. */
const MAX_REDIRECTS = 3;

export const unreachable = (why: string) =>
  new ApiError("calendar_unreachable", `The calendar could not be fetched: ${why}.`);

const tooLarge = (max: number) =>
  new ApiError(
    "calendar_invalid",
    `The calendar is larger than ${max / (1024 * 1024)} MB; nothing of it was kept.`,
  );

/**
 * Fetches an ICS URL within the limits: the whole exchange (every redirect,
 * the headers and the body) within `timeoutMs`, the body counted on the
 * stream and cut at `maxBytes` whatever Content-Length says. Redirects are
 * followed by hand so every hop passes the URL guard (a public URL must not
 * bounce the fetch into a private network). Throws 422 `calendar_unreachable`
 * or `calendar_invalid` (too large).
 */
export async function fetchCalendar(url: string, options: FetchOptions): Promise<Fetched> {
  const maxBytes = Math.min(options.maxBytes ?? ICS_LIMITS.maxBytes, ICS_LIMITS.maxBytes);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let target = url;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5" };
      if (options.etag) headers["if-none-match"] = options.etag;
      let response: Response;
      try {
        response = await fetch(target, { headers, redirect: "manual", signal: controller.signal });
      } catch {
        throw unreachable(controller.signal.aborted ? "no answer in time" : "no connection");
      }
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location || hop >= MAX_REDIRECTS) throw unreachable("too many redirects");
        try {
          target = new URL(location, target).href;
        } catch {
          throw unreachable("it redirects to something that is not a URL");
        }
        if (webhookUrlProblem(target, options.allowPrivate)) {
          throw unreachable("it redirects to an address that is not allowed");
        }
        continue;
      }
      if (response.status === 304 && options.etag) {
        await response.body?.cancel();
        return { changed: false };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw unreachable(`the server answered ${response.status}`);
      }
      const text = await readCapped(response, maxBytes, controller.signal);
      return { changed: true, text, etag: response.headers.get("etag") };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The body as UTF-8, refusing it as soon as more than `maxBytes` arrived. */
async function readCapped(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreachable(signal.aborted ? "no answer in time" : "the connection broke");
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder("utf-8").decode(bytes);
}

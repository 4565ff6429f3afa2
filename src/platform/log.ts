/**
 * The one place the Worker writes logs (eslint's no-console holds everything
 * else in src/ to it). A line is JSON `{ level, message, ...fields }`, and
 * nothing secret gets through (docs/decisions.md, "Logs"):
 * - an error is its name, message and stack frames, down its `cause` chain,
 *   with SQL parameters cut out: drizzle puts every bound value of a failed
 *   query (webhook secrets and headers, customer data, key ids) in its
 *   message and stack, so only the query text is kept;
 * - fields named like a credential (secret, token, authorization, headers,
 *   params, password, api key, cookie) are replaced, at any depth;
 * - the finished line is scrubbed once more for anything shaped like an API
 *   key, a webhook signing secret, a calendar feed token or a Bearer/Basic
 *   credential, and for the token of a keyless link's path or query string.
 */

type Level = "debug" | "info" | "warn" | "error";

const REDACTED = "[redacted]";
const SECRET_FIELD = /secret|token|authori[sz]ation|password|api_?key|cookie|^headers$|^params$/i;
const MAX_DEPTH = 5;

/** A link's token: up to the next separator, written plain or percent-encoded. */
const TOKEN = String.raw`(?:(?!%2F|%3F|%23|%26)[^/\s"'?#&\\])+`;

/** Credentials recognisable by their shape, wherever they appear in a line. */
const SHAPES: [RegExp, string][] = [
  [/\b(sk|pk)_[0-9a-f]{16}_[A-Za-z0-9_-]+/g, `$1_${REDACTED}`],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, `whsec_${REDACTED}`],
  // A staffer's calendar feed token, in its URL's path (src/bookings/feed-token.ts).
  [/\bfeed_[A-Za-z0-9_-]{20,}/g, `feed_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[^\s"'\\,;]+/gi, `$1 ${REDACTED}`],
  // Keyless links carry their token in the path (`/manage/{token}`, `/waitlist-offers/{token}`,
  // `/feeds/<token>.ics`, fixed by the API's contract) or in the widget pages' query string.
  // Either may be percent-encoded too (a link carried inside another URL's query string).
  [
    new RegExp(String.raw`((?:\/|%2F)(?:manage|waitlist-offers|feeds)(?:\/|%2F))${TOKEN}`, "gi"),
    `$1${REDACTED}`,
  ],
  [new RegExp(String.raw`((?:[?&]|%3F|%26)token(?:=|%3D))${TOKEN}`, "gi"), `$1${REDACTED}`],
];

/** Drizzle's failed-query message: `Failed query: <sql>\nparams: <values>`. */
const PARAMS = /\n?\s*params:[\s\S]*$/;

export function redact(text: string): string {
  return SHAPES.reduce((t, [shape, replacement]) => t.replace(shape, replacement), text);
}

interface DescribedError {
  name: string;
  message: string;
  stack?: string[];
  cause?: DescribedError | string;
}

/** An error as a log may carry it: no SQL parameters, the stack as frames only. */
export function describeError(error: unknown, depth = 0): DescribedError | string {
  if (!(error instanceof Error)) return redact(String(error)).replace(PARAMS, "");
  const query = (error as { query?: unknown }).query;
  const message =
    typeof query === "string" && "params" in error
      ? `Failed query: ${query}`
      : error.message.replace(PARAMS, "");
  const described: DescribedError = { name: error.name, message: redact(message) };
  // The stack repeats the message (parameters and all) before its frames: keep the frames.
  const frames = error.stack?.split("\n").filter((line) => /^\s+at /.test(line));
  if (frames && frames.length > 0) described.stack = frames.map((f) => redact(f.trim()));
  if (error.cause !== undefined && depth < MAX_DEPTH)
    described.cause = describeError(error.cause, depth + 1);
  return described;
}

function sanitize(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return describeError(value);
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[…]";
  if (Array.isArray(value)) return value.map((v) => sanitize(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      SECRET_FIELD.test(key) ? REDACTED : sanitize(v, depth + 1),
    ]),
  );
}

const WRITERS: Record<Level, (line: string) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message: redact(message), ...(sanitize(fields) as object) });
  WRITERS[level](redact(line));
}

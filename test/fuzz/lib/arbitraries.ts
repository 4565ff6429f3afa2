import fc from "fast-check";
import { type Api, maxItemsOf, nullable, type Schema, type Schemas, typeOf } from "./schema";
import { allOf, type Kind, type Pool, type World } from "./world";

/**
 * fast-check arbitraries for *valid* request values, built from the schemas of
 * the OpenAPI documents. The schema gives types, enums, bounds, lengths,
 * patterns and maxItems; a field's name adds what a schema cannot say (which
 * record an id must name, that a phone must be dialable, that a booking time
 * must fall in working hours), and a few cross-field rules the documents state
 * only in prose are applied afterwards (`fixups`).
 */

export interface Ctx {
  api: Api;
  world: World;
  schemas: Schemas;
  /** Component name of the body being built (`CreateOrder`), or `query:<op>` for query strings. */
  bodyName: string | null;
  /** The operation's path template, for path parameters named only `uuid`. */
  path?: string;
}

// ---------------------------------------------------------------------------
// Leaves

const ZONES = ["Europe/Berlin", "UTC", "America/New_York", "Asia/Tokyo", "Australia/Sydney"];
const COUNTRIES = ["DE", "AT", "US", "GB", "FR", "JP"];
const CURRENCIES = ["EUR", "USD", "GBP", "JPY", "KWD", "CHF"];
const LOCALES = ["en", "de", "de-DE", "fr-FR", "ja"];
const NAMES = [
  "Anna",
  "Berg",
  "Ünïcødé",
  "Ελένη",
  "李雷",
  "O'Brien",
  "Jean-Luc",
  "محمد",
  "Zoë 🙂",
  "Robert'); DROP TABLE bookings;--",
  "<b>bold</b>",
];

/** Strings the API accepts for a required text: not blank once trimmed, within the length. */
function text(s: Schema, cap = 60): fc.Arbitrary<string> {
  const max = s.maxLength ?? 255;
  const min = Math.max(1, s.minLength ?? 0);
  const fit = (v: string) => {
    let out = v.slice(0, max);
    if (out.trim().length < min) out = `${"x".repeat(min)}${out}`.slice(0, max);
    return out;
  };
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...NAMES) },
      {
        weight: 3,
        arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, cap), unit: "grapheme" }),
      },
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, cap) }) },
      // The longest value the schema allows.
      { weight: 1, arbitrary: fc.constant("ä".repeat(max)) },
    )
    .map(fit);
}

/** Optional free text may be empty. */
const freeText = (s: Schema) =>
  fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 5, arbitrary: text(s, 200) });

/** Integers spread over orders of magnitude, so large and small values both appear. */
export function logInt(min: number, max: number): fc.Arbitrary<number> {
  if (max - min <= 1000) return fc.integer({ min, max });
  const digits = Math.max(1, Math.ceil(Math.log10(max - min + 1)));
  return fc
    .integer({ min: 0, max: digits })
    .chain((d) => fc.integer({ min, max: Math.min(max, min + Math.max(9, 10 ** d) - 1) }));
}

function integer(s: Schema, name: string, ctx: Ctx): fc.Arbitrary<number> {
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
  if (name === "page") [min, max] = [1, 4];
  if (name === "per_page" || name === "limit") [min, max] = [1, 100];
  if (name === "duration") return fc.constantFrom(15, 30, 45, 60, 90);
  const lo = min ?? 0;
  const hi = max ?? lo + 10_000;
  const money = /price|amount/.test(name);
  // Order lines and discounts stay small so totals and discounts fit each other.
  if (money && ctx.bodyName && /Order/.test(ctx.bodyName)) return logInt(lo, Math.min(hi, 50_000));
  if (name === "quantity")
    return fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: lo, max: Math.min(hi, 5) }) },
      { weight: 1, arbitrary: fc.constant(hi) },
    );
  return fc.oneof(
    { weight: 6, arbitrary: logInt(lo, hi) },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
  );
}

// Times: bookings need a weekday inside the fixture's working hours (09:00–18:00
// Berlin); weeks far apart keep fuzz bookings from colliding all the time.
const FIRST_MONDAY = Date.UTC(2030, 0, 7);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const dayArb = fc
  .tuple(fc.integer({ min: 0, max: 520 }), fc.integer({ min: 0, max: 4 }))
  .map(([week, day]) => FIRST_MONDAY + (week * 7 + day) * DAY);
export const slotInstant = fc
  .tuple(dayArb, fc.integer({ min: 8, max: 14 }), fc.constantFrom(0, 15, 30, 45))
  .map(([day, h, m]) => iso(day + h * 3_600_000 + m * 60_000));
const date = dayArb.map((d) => iso(d).slice(0, 10));
const instant = fc.oneof(
  slotInstant,
  fc
    .date({ min: new Date("2020-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
    // Whole seconds, as every instant the API takes must be (`.000` is a whole second).
    .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString()),
  slotInstant.map((v) => v.replace("Z", "+01:00")),
);
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);

const digits = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: n, maxLength: n });
const phone = fc.oneof(
  digits(8).map((d) => `+49 151 ${d}`),
  digits(8).map((d) => `0151 ${d}`),
  digits(4).map((d) => `+1 212 736 ${d}`),
);
const email = fc
  .tuple(fc.constantFrom("anna", "bob", "o.brien", "x.y+tag"), digits(4))
  .map(([u, d]) => `${u}${d}@example.com`);
const emailList = fc.array(email, { minLength: 1, maxLength: 3 }).map((l) => l.join(","));
const alnum = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"),
    minLength: min,
    maxLength: max,
  });
/** Webhook targets: loopback only, on the discard port, so deliveries fail at once and stay on this machine. */
export const LOOPBACK_URLS = [
  "http://127.0.0.1:9/hooks",
  "http://127.0.0.1:9/a/b?x=1",
  "http://[::1]:9/hooks",
  "http://localhost:9/fuzz",
];
const imageUrl = fc.nat({ max: 999 }).map((n) => `http://127.0.0.1:9/img/${n}.png`);

// ---------------------------------------------------------------------------
// Ids

/** Which kind of record a field names, from its name and where it sits. */
export function kindFor(name: string, ctx: Ctx, atRoot: boolean): Kind | null {
  const base = name.replace(/_uuids$/, "_uuid").replace(/^query\.|^path\./, "");
  switch (base) {
    case "ws":
      return "workspace";
    case "location_uuid":
      return "location";
    case "service_uuid":
      return "service";
    case "staffer_uuid":
      return atRoot && /Order/.test(ctx.bodyName ?? "") ? "seller" : "staffer";
    case "uuid":
      // Management paths name their record `{uuid}`: the collection before it says which.
      if (ctx.path?.includes("/resources/")) return "resource";
      if (ctx.path?.includes("/locations/")) return "location";
      return "schedulable";
    case "resource_uuid":
      return "resource";
    case "good_uuid":
      return "good";
    case "customer_uuid":
      return "customer";
    case "booking_uuid":
      return "booking";
    case "order_uuid":
      return "order";
    case "account_uuid":
      return "account";
    case "status_uuid":
      return "status";
    case "category_uuid":
      return ctx.bodyName === "CreateGood" ? "category_good" : "category_service";
    case "voucher_template_uuid":
      return "voucher_template";
    case "promocode":
      return "promocode";
    case "webhook_id":
      return "webhook";
    case "key_id":
      return "api_key";
    default:
      return null;
  }
}

/**
 * Mostly the fixture's records (built to succeed), sometimes ones the fuzz
 * created; `prefer: "created"` turns that round, for records that requests
 * use up (bookings get canceled, orders paid, webhooks deleted).
 */
export function fromPool(pool: Pool, prefer: "fixed" | "created" = "fixed"): fc.Arbitrary<string> {
  const options: fc.WeightedArbitrary<string>[] = [];
  const [fixedWeight, createdWeight] = prefer === "fixed" ? [8, 1] : [1, 8];
  if (pool.fixed.length)
    options.push({ weight: fixedWeight, arbitrary: fc.constantFrom(...pool.fixed) });
  if (pool.created.length)
    options.push({ weight: createdWeight, arbitrary: fc.constantFrom(...pool.created) });
  if (options.length) return fc.oneof(...options);
  return pool.spent.length ? fc.constantFrom(...pool.spent) : fc.uuid({ version: 4 });
}

/** Kinds whose records the API closes or removes: draws prefer fresh ones. */
export const USED_UP: ReadonlySet<Kind> = new Set(["booking", "order", "webhook", "api_key"]);

// ---------------------------------------------------------------------------
// Schemas

/** A string leaf from the field's name, or null to fall back to the schema. */
function namedString(name: string, s: Schema, ctx: Ctx, atRoot: boolean) {
  const kind = kindFor(name, ctx, atRoot);
  if (kind) return fromPool(ctx.world.shop.pools[kind], USED_UP.has(kind) ? "created" : "fixed");
  switch (name) {
    case "url":
      return fc.constantFrom(...LOOPBACK_URLS);
    case "images":
    case "cover":
      return imageUrl;
    case "timezone":
    case "customer_browser_tz":
      return fc.constantFrom(...ZONES);
    case "country":
      return fc.constantFrom(...COUNTRIES);
    case "currency":
      return fc.constantFrom(...CURRENCIES);
    case "locale":
    case "customer_browser_language":
      return fc.constantFrom(...LOCALES);
    case "phone":
    case "customer_phone":
      return phone;
    case "email":
    case "customer_email":
      return email;
    case "emails":
    case "booking_google_meet_guest_emails":
      return emailList;
    case "method":
      return fc.constantFrom("POST", "post", "PUT", "PATCH", "GET", "DELETE");
    case "success_statuses":
      return fc.constantFrom("200", "200,201", " 200 , 202,204 ");
    case "reserved_on":
    case "datetime_start":
    case "starts_at":
    case "ends_at":
      return slotInstant;
    case "range_start":
    case "range_end":
    case "date":
      return date;
    case "start":
    case "end":
      return hhmm;
    case "reserved_on_from":
    case "reserved_on_to":
    case "created_at_from":
    case "created_at_to":
      return instant;
    case "code":
      return alnum(6, 12).map((c) => `FZ${c}`);
    case "article":
      return alnum(4, 10).map((c) => `ART-${c}`);
    case "permissions":
      return fc.oneof(
        fc.constantFrom("access-pos", "manage-bookings", "view-reports"),
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      );
    case "token":
      return fc.constantFrom(
        ...(ctx.world.icalTokens.size ? ctx.world.icalTokens.values() : ["x"]),
      );
  }
  if (s.format === "uuid") return fc.uuid({ version: 4 });
  if (s.format === "date-time") return instant;
  if (s.format === "email") return email;
  if (s.pattern)
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1e9));
  return null;
}

/** Header pairs must be HTTP tokens; the schema's pattern says so, names keep them readable. */
function headerPair(): fc.Arbitrary<unknown> {
  return fc.record({
    name: fc.constantFrom("X-Fuzz", "X-Trace-Id", "X-Api-Version", "Accept-Language"),
    value: fc.string({ unit: fc.constantFrom(..."abcXYZ0123 -_"), maxLength: 40 }),
  });
}

export function arbitraryFor(
  schema: Schema,
  ctx: Ctx,
  name = "",
  atRoot = true,
): fc.Arbitrary<unknown> {
  const s = ctx.schemas.resolve(ctx.api, schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    // The named leaf (a date for range_start) wins over the generic variants.
    const named = namedString(name, s, ctx, atRoot);
    if (named) return named;
    return fc.oneof(...variants.map((v) => arbitraryFor(v, ctx, name, atRoot)));
  }
  const inner = base(s, ctx, name, atRoot);
  return nullable(s)
    ? fc.oneof({ weight: 6, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) })
    : inner;
}

function base(s: Schema, ctx: Ctx, name: string, atRoot: boolean): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (typeOf(s)) {
    case "object":
      return object(s, ctx, name, atRoot);
    case "array":
      return array(s, ctx, name, atRoot);
    case "integer":
    case "number":
      return integer(s, name, ctx);
    case "boolean":
      return fc.boolean();
    case "string": {
      const named = namedString(name, s, ctx, atRoot);
      if (named) return named;
      if ((s.minLength ?? 0) === 0 && s.maxLength !== undefined && s.maxLength > 255)
        return freeText(s);
      return text(s);
    }
    default:
      return fc.constant(null);
  }
}

function object(s: Schema, ctx: Ctx, name: string, atRoot: boolean): fc.Arbitrary<unknown> {
  if (name === "headers" && !atRoot) return headerPair();
  const props = s.properties ?? {};
  if (
    Object.keys(props).length === 0 &&
    s.additionalProperties &&
    s.additionalProperties !== true
  ) {
    // A dictionary (translations by locale).
    const value = arbitraryFor(s.additionalProperties, ctx, "value", false);
    return fc.dictionary(fc.constantFrom(...LOCALES), value, {
      maxKeys: Math.min(3, s.maxProperties ?? 3),
    });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props))
    model[k] = arbitraryFor(v, ctx, k, atRoot && name === "");
  return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
}

function array(s: Schema, ctx: Ctx, name: string, atRoot: boolean): fc.Arbitrary<unknown> {
  const item = s.items ? ctx.schemas.resolve(ctx.api, s.items) : {};
  const min = s.minItems ?? 0;
  const max = Math.max(min, maxItemsOf(s));
  if (name === "headers")
    return fc.array(headerPair(), { minLength: min, maxLength: Math.min(max, 3) });
  // Ids of real records and enum values: distinct picks (a subset), as a client sends them.
  const kind = typeOf(item) === "string" ? kindFor(name, ctx, atRoot) : null;
  const choices = kind
    ? allOf(ctx.world.shop.pools[kind]).slice(0, 50)
    : item.enum && typeOf(item) === "string"
      ? item.enum
      : null;
  if (choices && choices.length >= Math.max(min, 1))
    return fc.shuffledSubarray(choices, {
      minLength: min,
      maxLength: Math.min(max, choices.length),
    });
  const itemArb = arbitraryFor(item, ctx, name, false);
  // Mostly short lists, sometimes any length up to the documented maximum, sometimes exactly it.
  return fc.oneof(
    {
      weight: 7,
      arbitrary: fc.array(itemArb, { minLength: min, maxLength: Math.min(max, min + 3) }),
    },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min, max })
        .chain((n) => fc.array(itemArb, { minLength: n, maxLength: n })),
    },
    { weight: 1, arbitrary: fc.array(itemArb, { minLength: max, maxLength: max }) },
  );
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseLocale } from "../../../src/messages/rules/locale";
import {
  announce,
  BUILT_IN_LOCALES,
  DEFAULT_SETTINGS,
  localDate,
  localeChain,
  localTime,
  type MessageContext,
  MESSAGE_KINDS,
  NotificationSettingsSchema,
  remind,
  renderTemplate,
  UnknownVariableError,
  unknownVariables,
  VARIABLES,
  type Values,
  writeMessage,
} from "../../../src/messages/rules";

const booking = {
  id: "b1",
  startAt: Date.parse("2026-03-28T09:00:00Z"),
  serviceNames: ["Haircut"],
  stafferFirstNames: ["Anna"],
  icalUrl: "https://x.test/ical",
  manageUrl: "https://x.test/manage",
};

const ctx = (over: Partial<MessageContext> = {}): MessageContext => ({
  settings: { ...DEFAULT_SETTINGS, sms: { enabled: true } },
  workspaceLocale: "en",
  currency: "EUR",
  customer: {
    id: "c1",
    firstName: "Mia",
    email: "mia@example.com",
    phone: "+4915112345678",
    locale: null,
    notifyEmail: true,
    notifySms: true,
  },
  location: { name: "Salon", address: null, timezone: "Europe/Berlin" },
  total: 4500,
  ...over,
});

describe("built-in texts", () => {
  it("every kind × locale × channel renders with no {{ left", () => {
    for (const kind of MESSAGE_KINDS)
      for (const locale of BUILT_IN_LOCALES)
        for (const channel of ["email", "sms"] as const) {
          const c = ctx({ customer: { ...ctx().customer, locale } });
          const text = writeMessage(kind, channel, c, [booking]);
          expect(text.locale).toBe(locale);
          expect(text.body).not.toContain("{{");
          expect(text.subject ?? "").not.toContain("{{");
          expect(text.body).toContain("Salon");
          if (channel === "sms") expect(text.body.length).toBeLessThanOrEqual(160);
        }
  });

  it("any values render into any kind without a placeholder surviving", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MESSAGE_KINDS),
        fc.constantFrom(...BUILT_IN_LOCALES),
        fc.string().filter((s) => !s.includes("{{")),
        fc.integer({ min: Date.parse("2020-01-01"), max: Date.parse("2099-01-01") }),
        (kind, locale, name, startAt) => {
          const c = ctx({ customer: { ...ctx().customer, locale, firstName: name } });
          const text = writeMessage(kind, "email", c, [{ ...booking, startAt }]);
          return !text.body.includes("{{") && !(text.subject ?? "").includes("{{");
        },
      ),
    );
  });
});

describe("a summary of several bookings (a series change, a cart)", () => {
  // Three Saturdays at 10:00 Berlin, the last after the DST change.
  const three = ["2026-03-14T09:00:00Z", "2026-03-21T09:00:00Z", "2026-03-28T09:00:00Z"].map(
    (iso, i) => ({ ...booking, id: `b${i}`, startAt: Date.parse(iso) }),
  );
  for (const kind of ["booking-confirmation", "booking-rescheduled", "booking-canceled"] as const)
    for (const locale of BUILT_IN_LOCALES)
      it(`${kind} in ${locale} names every date in its e-mail`, () => {
        const c = ctx({ customer: { ...ctx().customer, locale } });
        const text = writeMessage(kind, "email", c, three);
        for (const b of three)
          expect(text.body, text.body).toContain(localDate(b.startAt, "Europe/Berlin", locale));
      });
});

describe("locale fallback", () => {
  it("goes de-AT → de → workspace → en", () => {
    expect(localeChain("de-AT", "fr")).toEqual(["de-AT", "de", "fr", "en"]);
    expect(localeChain("de_at", "fr-CH")).toEqual(["de-AT", "de", "fr-CH", "fr", "en"]);
    expect(localeChain(null, "es")).toEqual(["es", "en"]);
    expect(localeChain("garbage!!", "en")).toEqual(["en"]);
  });

  it("always starts with the customer's tag, reaches en, and repeats nothing (property)", () => {
    const tag = fc.constantFrom("de", "de-AT", "fr", "fr-CH", "es", "en", "en-GB", "ja", "pt-BR");
    fc.assert(
      fc.property(fc.option(tag, { nil: null }), tag, (customer, workspace) => {
        const chain = localeChain(customer, workspace);
        return (
          chain.includes("en") &&
          new Set(chain).size === chain.length &&
          (customer === null || chain[0] === customer) &&
          chain.includes(workspace)
        );
      }),
    );
  });

  it("an Austrian customer reads German, an unknown language falls to the workspace's", () => {
    const at = writeMessage(
      "booking-reminder",
      "email",
      ctx({ customer: { ...ctx().customer, locale: "de-AT" } }),
      [booking],
    );
    expect(at.locale).toBe("de");
    expect(at.subject).toContain("Erinnerung");
    const ja = writeMessage(
      "booking-reminder",
      "email",
      ctx({ workspaceLocale: "fr", customer: { ...ctx().customer, locale: "ja" } }),
      [booking],
    );
    expect(ja.locale).toBe("fr");
    const none = writeMessage("booking-reminder", "email", ctx({ workspaceLocale: "ja" }), [
      booking,
    ]);
    expect(none.locale).toBe("en");
  });

  it("a workspace template for de-AT wins over the built-in de", () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      templates: { "booking-reminder": { "de-AT": { body: "Servus {{customer_first_name}}" } } },
    };
    const text = writeMessage(
      "booking-reminder",
      "email",
      ctx({ settings, customer: { ...ctx().customer, locale: "de-AT" } }),
      [booking],
    );
    expect(text).toMatchObject({ locale: "de-AT", body: "Servus Mia" });
    expect(text.subject).toContain("Erinnerung");
  });
});

describe("dates in the location's zone across DST", () => {
  // The last Sundays of March and October 2026: the 29th and the 25th.
  const cases = [
    ["2026-03-28T09:00:00Z", "Saturday", "10:00"], // CET, UTC+1
    ["2026-03-30T08:00:00Z", "Monday", "10:00"], // CEST, UTC+2
    ["2026-10-24T08:00:00Z", "Saturday", "10:00"], // CEST
    ["2026-10-26T09:00:00Z", "Monday", "10:00"], // CET
  ] as const;
  for (const [iso, weekday, time] of cases)
    it(`${iso} is ${weekday} ${time} in Berlin`, () => {
      const at = Date.parse(iso);
      expect(localDate(at, "Europe/Berlin", "en-GB")).toContain(weekday);
      expect(localTime(at, "Europe/Berlin", "de")).toBe(time);
    });

  it("German and French write their own weekday names", () => {
    const at = Date.parse("2026-03-30T08:00:00Z");
    expect(localDate(at, "Europe/Berlin", "de")).toBe("Montag, 30. März 2026");
    expect(localDate(at, "Europe/Berlin", "fr")).toBe("lundi 30 mars 2026");
  });
});

describe("templates", () => {
  const values = Object.fromEntries(Object.keys(VARIABLES).map((k) => [k, `<${k}>`])) as Values;

  it("substitutes documented variables only, once", () => {
    expect(renderTemplate("Hi {{ customer_first_name }} {{time}}", values)).toBe(
      "Hi <customer_first_name> <time>",
    );
    expect(
      renderTemplate("{{customer_first_name}}", { ...values, customer_first_name: "{{time}}" }),
    ).toBe("{{time}}");
  });

  it("refuses unknown variables and code", () => {
    expect(() => renderTemplate("{{constructor}}", values)).toThrow(UnknownVariableError);
    expect(unknownVariables("{{ process.env }} {{a}}")).toEqual(["process.env", "a"]);
    expect(unknownVariables("{{#each items}}")).toEqual(["#each items"]);
    expect(unknownVariables("open {{time")).toEqual(["{{"]);
    expect(unknownVariables("{{__proto__}}")).toEqual(["__proto__"]);
  });

  it("refuses any name outside the list (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,20}$/), (name) => {
        const known = Object.hasOwn(VARIABLES, name);
        return unknownVariables(`{{${name}}}`).length === (known ? 0 : 1);
      }),
    );
  });
});

describe("settings", () => {
  const ok = (s: unknown) => NotificationSettingsSchema.safeParse(s).success;
  const reminder = { channel: "email", minutes_before: 60 };
  it("bounds reminders at 3 and minutes at 1..20160", () => {
    expect(ok({ ...DEFAULT_SETTINGS, reminders: [reminder, reminder, reminder] })).toBe(true);
    expect(ok({ ...DEFAULT_SETTINGS, reminders: [reminder, reminder, reminder, reminder] })).toBe(
      false,
    );
    expect(ok({ ...DEFAULT_SETTINGS, reminders: [{ ...reminder, minutes_before: 0 }] })).toBe(
      false,
    );
    expect(ok({ ...DEFAULT_SETTINGS, reminders: [{ ...reminder, minutes_before: 20161 }] })).toBe(
      false,
    );
    expect(ok({ ...DEFAULT_SETTINGS, reminders: [{ ...reminder, minutes_before: 20160 }] })).toBe(
      true,
    );
  });

  it("names the field of an unknown variable", () => {
    const r = NotificationSettingsSchema.safeParse({
      ...DEFAULT_SETTINGS,
      templates: { "booking-reminder": { de: { body: "{{nope}}" } } },
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["templates", "booking-reminder", "de", "body"]);
  });
});

describe("drafts", () => {
  const now = Date.parse("2026-03-20T00:00:00Z");
  it("one per reachable enabled channel; opted out is skipped", () => {
    const drafts = announce(
      "booking-confirmation",
      ctx({ customer: { ...ctx().customer, notifySms: false } }),
      [booking],
      now,
    );
    expect(drafts.map((d) => [d.channel, d.status])).toEqual([
      ["email", "scheduled"],
      ["sms", "skipped"],
    ]);
    expect(
      announce(
        "booking-confirmation",
        ctx({ customer: { ...ctx().customer, email: null } }),
        [booking],
        now,
      ).map((d) => d.channel),
    ).toEqual(["sms"]);
  });

  it("reminders at start − minutes_before, none once passed", () => {
    expect(remind(ctx(), booking, now).map((d) => d.scheduledFor)).toEqual([
      booking.startAt - 1440 * 60_000,
    ]);
    expect(remind(ctx(), booking, booking.startAt - 60_000)).toEqual([]);
  });
});

describe("a customer's locale", () => {
  it("refuses tags a date formatter would refuse (a hostile browser language)", () => {
    for (const tag of ["en-US-US", "de-1996-1996", "en-12"])
      expect(normaliseLocale(tag)).toBeNull();
    expect(normaliseLocale("de_at")).toBe("de-AT");
  });

  it("keeps only tags every formatter accepts (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/), (raw) => {
        const tag = normaliseLocale(raw);
        if (tag !== null) expect(() => new Intl.DateTimeFormat(tag).format(0)).not.toThrow();
      }),
    );
  });
});

describe("location_address", () => {
  const address = {
    line1: "Hauptstraße 1",
    line2: null,
    city: "Berlin",
    postal_code: "10115",
    country: "DE",
  };
  const settings = {
    ...DEFAULT_SETTINGS,
    sms: { enabled: false },
    templates: {
      "booking-confirmation": {
        en: { subject: "Hi", body: "At {{location_address}}." },
        de: { subject: "Hallo", body: "In {{location_address}}." },
      },
    },
  };

  it("is the location's address on one line, the country named in the message's language", () => {
    const en = writeMessage(
      "booking-confirmation",
      "email",
      ctx({
        settings: NotificationSettingsSchema.parse(settings),
        location: { name: "Salon", address, timezone: "Europe/Berlin" },
      }),
      [booking],
    );
    expect(en.body).toBe("At Hauptstraße 1, 10115 Berlin, Germany.");
    const de = writeMessage(
      "booking-confirmation",
      "email",
      ctx({
        settings: NotificationSettingsSchema.parse(settings),
        customer: { ...ctx().customer, locale: "de" },
        location: {
          name: "Salon",
          address: { ...address, line2: "Hof 2" },
          timezone: "Europe/Berlin",
        },
      }),
      [booking],
    );
    expect(de.body).toBe("In Hauptstraße 1, Hof 2, 10115 Berlin, Deutschland.");
  });

  it("is empty when the location has no address", () => {
    const none = writeMessage(
      "booking-confirmation",
      "email",
      ctx({ settings: NotificationSettingsSchema.parse(settings) }),
      [booking],
    );
    expect(none.body).toBe("At .");
  });
});

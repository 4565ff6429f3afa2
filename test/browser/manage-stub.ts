import type { Page, Request, Route } from "playwright-core";

/**
 * A stand-in for the manage API (`/api/public/v2/manage/{token}…`) in its real shapes
 * (src/bookings/http/manage/schema.ts), for what a real server cannot be made to do on cue:
 * a time taken between the search and the move, a policy window closing mid-page.
 * `widget-manage-api.test.ts` drives the page against the real API.
 */

export interface StubBooking {
  uuid: string;
  start_time: string;
  end_time: string;
  timezone: string;
  is_canceled: boolean;
  policy: {
    policy_text: string | null;
    is_cancelable: boolean;
    cancellation_text: string | null;
    is_changeable: boolean;
    change_text: string | null;
    cancellation_offset: number;
    change_offset: number;
  };
  ordered_services: {
    uuid: string;
    name: string;
    staffer_uuid: string | null;
    duration: { value: number; label: string };
    reserved_on: string;
    reserved_until: string;
  }[];
}

export const MIA = "6f1d2c3b-0000-4000-8000-000000000001";

/** The salon as the manage and offer views name it: a brand over the location. */
export const SALON = {
  name: "Salon Lumen",
  location_name: "Widget Salon Mitte",
  address: {
    line1: "Torstraße 1",
    line2: null,
    city: "Berlin",
    postal_code: "10119",
    country: "DE",
  },
  address_line: "Torstraße 1, 10119 Berlin, Germany",
  phone: "+493012345678",
  logo_url: "https://salon.test/logo.png",
  // White text on it reads at better than 4.5:1, as the API requires.
  accent_color: "#6b2fa3",
};
export type StubSalon = typeof SALON;

/** A 1×1 PNG: the logo's stand-in (the page must not reach another host). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** Serves the stub salon's logo. */
export const serveLogo = (page: Page) =>
  page.route(SALON.logo_url, (route) =>
    route.fulfill({ status: 200, contentType: "image/png", body: PNG }),
  );

/**
 * A 45-minute haircut with Mia at `start`, booked through the widget from a browser in
 * `clientZone` (the booking's own `timezone`, as the widget sends it): NOT the salon's zone,
 * which the manage view gives beside the booking.
 */
export function stubBooking(start: string, clientZone = "America/New_York"): StubBooking {
  const end = new Date(Date.parse(start) + 45 * 60_000).toISOString().replace(".000Z", "Z");
  return {
    uuid: "0b7f3a52-0000-4000-8000-0000000000b1",
    start_time: start,
    end_time: end,
    timezone: clientZone,
    is_canceled: false,
    policy: {
      policy_text: "Please arrive five minutes early.",
      is_cancelable: true,
      cancellation_text: "Free cancellation up to 24 hours before.",
      is_changeable: true,
      change_text: "Changes up to 24 hours before.",
      cancellation_offset: 1440,
      change_offset: 1440,
    },
    ordered_services: [
      {
        uuid: "0b7f3a52-0000-4000-8000-0000000000c1",
        name: "Haircut",
        staffer_uuid: MIA,
        duration: { value: 45, label: "45 min" },
        reserved_on: start,
        reserved_until: end,
      },
    ],
  };
}

/** `GET /manage/{token}`'s answer, as the real API gives it, for a salon in `salonZone`. */
export function managedView(
  booking: StubBooking,
  token: string,
  salonZone: string,
  salon: StubSalon | null = SALON,
) {
  return {
    salon,
    booking,
    location: { uuid: "0b7f3a52-0000-4000-8000-0000000000a1", timezone: salonZone },
    timezone: salonZone,
    locale: "en-GB",
    staffers: [{ uuid: MIA, first_name: "Mia" }],
    manage: manageLink(booking, token),
  };
}

/** The link for the booking at its current time, as the API's answers carry it. */
export const manageLink = (booking: StubBooking, token: string) => ({
  token,
  url: `http://salon.test/widget/manage?token=${token}`,
  expires_at: new Date(Date.parse(booking.end_time) + 86_400_000).toISOString(),
});

/** `POST /manage/{token}/reschedule`'s answer: the moved booking and its new link. */
export const movedAnswer = (booking: StubBooking, token: string): Answer => ({
  status: 200,
  body: { ...booking, manage: manageLink(booking, token) },
});

const local = (ms: number, zone: string) =>
  new Date(ms).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: zone });

export interface Answer {
  status: number;
  body: unknown;
}

export const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { message: `English words for ${code}.`, code, errors: {}, ...extra },
});

export interface ManageStub {
  /** Every request the page made to the manage API. */
  requests: Request[];
  booking: StubBooking;
  /** The salon's (location's) zone: the page must show every time on its clock. */
  salonZone: string;
  /** Free starts (UTC instants) per date of the salon's calendar. */
  free: Record<string, string[]>;
  /** The token the page should hold: a move hands it a fresh one (`${token}.moved`). */
  token: string;
  /** The view's `salon`; null as an older API (without it) answers. */
  salon: StubSalon | null;
  onCancel: () => Answer;
  onReschedule: (reservedOn: string) => Answer;
}

/** Answers the manage API for `token`; any other token is 401 invalid_token. */
export async function stubManageApi(
  page: Page,
  token: string,
  booking: StubBooking,
  salonZone = "Europe/Berlin",
) {
  const stub: ManageStub = {
    requests: [],
    booking,
    salonZone,
    free: {},
    token,
    salon: SALON,
    onCancel: () => {
      stub.booking = { ...stub.booking, is_canceled: true };
      return { status: 200, body: stub.booking };
    },
    onReschedule: (reservedOn) => {
      const moved = stubBooking(reservedOn, stub.booking.timezone);
      stub.booking = { ...moved, policy: stub.booking.policy };
      stub.token = `${token}.moved`;
      return movedAnswer(stub.booking, stub.token);
    },
  };
  await serveLogo(page);
  await page.route("**/api/public/v2/manage/**", async (route: Route) => {
    const req = route.request();
    stub.requests.push(req);
    const url = new URL(req.url());
    const [, rest = ""] = url.pathname.split("/api/public/v2/manage/");
    const [given, action = ""] = rest.split("/");
    const answer = (a: Answer) =>
      route.fulfill({
        status: a.status,
        contentType: "application/json",
        body: JSON.stringify(a.body),
      });
    // Only the token the stub holds opens (a test hands the page another after a move, to see
    // that the page goes on with the one the answer carries).
    const held = decodeURIComponent(given ?? "");
    if (held !== stub.token) return answer(problem(401, "invalid_token"));
    if (req.method() === "GET" && action === "")
      return answer({
        status: 200,
        body: managedView(stub.booking, stub.token, stub.salonZone, stub.salon),
      });
    if (req.method() === "GET" && action === "time-slots") {
      const zone = stub.salonZone;
      const dates = Object.entries(stub.free).map(([date, starts]) => ({
        date,
        slots: starts.map((reserved_on) => {
          const at = Date.parse(reserved_on);
          const end = at + 45 * 60_000;
          const clock = (ms: number) => {
            const [h = 0, m = 0] = local(ms, zone).split(":").map(Number);
            return h * 3600 + m * 60;
          };
          return {
            start: local(at, zone),
            start_formatted: clock(at),
            end: local(end, zone),
            end_formatted: clock(end),
            reserved_on,
          };
        }),
      }));
      return answer({ status: 200, body: { timezone: zone, dates } });
    }
    if (req.method() === "POST" && action === "cancel") return answer(stub.onCancel());
    if (req.method() === "POST" && action === "reschedule") {
      const body = req.postDataJSON() as { reserved_on: string };
      return answer(stub.onReschedule(body.reserved_on));
    }
    return answer(problem(404, "not_found"));
  });
  return stub;
}

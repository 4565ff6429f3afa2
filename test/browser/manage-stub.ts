import type { Page, Request, Route } from "playwright-core";

/**
 * A stand-in for the manage API (`/api/public/v2/manage/{token}…`), built in parallel with
 * this page: the page is tested against the answers the API documents, through route
 * interception. Each answer can be replaced per test.
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
  staffers?: { uuid: string; first_name: string; last_name: string | null }[];
}

export const MIA = "6f1d2c3b-0000-4000-8000-000000000001";

/** A 45-minute haircut with Mia at `start`, at a salon in Europe/Berlin. */
export function stubBooking(start: string): StubBooking {
  const end = new Date(Date.parse(start) + 45 * 60_000).toISOString().replace(".000Z", "Z");
  return {
    uuid: "0b7f3a52-0000-4000-8000-0000000000b1",
    start_time: start,
    end_time: end,
    timezone: "Europe/Berlin",
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
    staffers: [{ uuid: MIA, first_name: "Mia", last_name: "Wagner" }],
  };
}

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
  /** Free local times (HH:MM, Europe/Berlin) per date. */
  free: Record<string, string[]>;
  onCancel: () => Answer;
  onReschedule: (reservedOn: string) => Answer;
}

/** Answers the manage API for `token`; any other token is 401 invalid_token. */
export async function stubManageApi(page: Page, token: string, booking: StubBooking) {
  const stub: ManageStub = {
    requests: [],
    booking,
    free: {},
    onCancel: () => {
      stub.booking = { ...stub.booking, is_canceled: true };
      return { status: 200, body: stub.booking };
    },
    onReschedule: (reservedOn) => {
      const moved = stubBooking(reservedOn);
      stub.booking = { ...moved, policy: stub.booking.policy };
      return { status: 200, body: stub.booking };
    },
  };
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
    if (decodeURIComponent(given ?? "") !== token) return answer(problem(401, "invalid_token"));
    if (req.method() === "GET" && action === "") return answer({ status: 200, body: stub.booking });
    if (req.method() === "GET" && action === "time-slots") {
      const dates = Object.entries(stub.free).map(([date, times]) => ({
        date,
        slots: times.map((start) => ({ start, price_formatted: "€35.00" })),
      }));
      return answer({ status: 200, body: { timezone: "Europe/Berlin", dates } });
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

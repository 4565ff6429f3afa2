import { exports } from "cloudflare:workers";
import createClient from "openapi-fetch";
import { beforeAll, describe, expect, it } from "vitest";
// Generated from the served document by `npm run openapi` (also run by `npm run typecheck`).
import type { paths } from "../../.wrangler/openapi/public-api";
import { ADMIN, BASE, PUBLIC, send } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/** openapi-fetch, as an integrator would use it, with every request routed to the Worker. */
const typedClient = (headers: Record<string, string> = {}) =>
  createClient<paths>({
    baseUrl: `${BASE}${PUBLIC}`,
    headers,
    fetch: (request: Request) => exports.default.fetch(request),
  });

let salon: Salon;
let api: ReturnType<typeof typedClient>;
beforeAll(async () => {
  salon = await createSalon(1);
  api = typedClient({ authorization: `Bearer ${salon.ws.apiKey}`, workspace: salon.ws.id });
});

describe("typed client generated from the public document", () => {
  it("lists services with the typed list envelope", async () => {
    const { data, error, response } = await api.GET("/services", {
      params: { query: { per_page: 10 } },
    });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    const names = data?.data.map((service) => service.name);
    expect(names).toEqual(expect.arrayContaining(["Haircut", "Colouring"]));
    expect(data?.meta.current_page).toBe(1);
  });

  it("creates a booking and reads it back", async () => {
    const created = await api.POST("/bookings", {
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00"),
        ...customer(),
      },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const booking = created.data;
    expect(booking?.start_time).toBe("2030-03-04T10:00:00Z");
    expect(booking?.ordered_services.map((s) => s.service_uuid)).toEqual([salon.cut.uuid]);

    const read = await api.GET("/bookings/{booking_uuid}", {
      params: { path: { booking_uuid: booking?.uuid ?? "" } },
    });
    expect(read.data?.uuid).toBe(booking?.uuid);
  });

  it("types the error body", async () => {
    const { data, error, response } = await api.GET("/services/{service_uuid}", {
      params: { path: { service_uuid: crypto.randomUUID() } },
    });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(error?.code).toBe("not_found");
  });

  it("fetches its own document without credentials", async () => {
    const { data, response } = await typedClient().GET("/openapi.json");
    expect(response.status).toBe(200);
    expect(data?.openapi).toBe("3.1.0");
  });
});

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
}
interface Document {
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
  );

describe("what tools need from both documents", () => {
  it.each([
    ["public", PUBLIC, { ApiKey: [], Workspace: [] }],
    ["management", ADMIN, { AdminToken: [] }],
  ])("the %s document has servers, security and unique operationIds", async (_, base, req) => {
    const doc = (await send<Document>(`${base}/openapi.json`)).body;
    expect(doc.servers).toEqual([{ url: base }]);
    expect(doc.security).toEqual([req]);
    for (const scheme of Object.keys(req))
      expect(doc.components.securitySchemes).toHaveProperty(scheme);
    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("exempts exactly the operations that need no credentials", async () => {
    const open = async (base: string) =>
      operations((await send<Document>(`${base}/openapi.json`)).body)
        .filter(({ op }) => op.security?.length === 0)
        .map(({ at }) => at);
    const manage = [
      "GET /manage/{token}",
      "GET /manage/{token}/time-slots",
      "POST /manage/{token}/cancel",
      "POST /manage/{token}/reschedule",
    ];
    // A staffer's calendar feed: its secret URL is the credential.
    const feed = "GET /feeds/{feed_file}";
    // A waitlist offer's link: its token is the credential.
    const offer = ["GET /waitlist-offers/{token}", "POST /waitlist-offers/{token}/book"];
    expect(await open(PUBLIC)).toEqual(
      expect.arrayContaining([
        "GET /openapi.json",
        "GET /bookings/{booking_uuid}/ical",
        ...manage,
        feed,
        ...offer,
      ]),
    );
    expect(await open(PUBLIC)).toHaveLength(9);
    expect(await open(ADMIN)).toEqual(["GET /openapi.json"]);
  });
});

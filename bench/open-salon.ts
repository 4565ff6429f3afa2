/** The management token every bench server is started with (bench/server.ts). */
export const BENCH_ADMIN_TOKEN = "bench-token";

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** POST to the management API of a bench server. */
export const adminPost = (base: string, path: string, body: unknown) =>
  fetch(`${base}/api/admin/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then(json);

/**
 * A workspace in UTC with one location open around the clock and `staffers`
 * staffers working all of it, made through the management API as an operator
 * would. Returns the workspace (with its API key), the location and staffer ids.
 */
export async function createOpenSalon(
  base: string,
  {
    staffers: count,
    slotStep,
    permissions = [],
  }: { staffers: number; slotStep: number; permissions?: string[] },
) {
  const ws = await adminPost(base, "/workspaces", {
    name: "Bench",
    country: "DE",
    currency: "EUR",
    timezone: "UTC",
  });
  const location = await adminPost(base, `/workspaces/${ws.uuid}/locations`, {
    name: "Bench",
    timezone: "UTC",
    slot_step: slotStep,
  });
  const staffers: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = await adminPost(base, `/workspaces/${ws.uuid}/staffers`, {
      first_name: `S${i}`,
      location_uuids: [location.uuid],
      permissions,
      schedule: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        location_uuid: location.uuid,
        weekday,
        start: "00:00",
        end: "24:00",
      })),
    });
    staffers.push(s.uuid as string);
  }
  return {
    workspaceId: ws.uuid as string,
    /** The shard its data lives on (the create's answer): where a bench reads its rows. */
    shard: ws.shard as string,
    apiKey: ws.api_key as string,
    location: location.uuid as string,
    staffers,
  };
}

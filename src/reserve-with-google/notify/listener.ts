import { z } from "zod";
import { createDb } from "../../db/client";
import { configOf } from "../../platform/config";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import type { EventRow } from "../../webhooks/queries/outbox";
import { partnerOf } from "../queries/partners";
import { localDays, type UpdateMask } from "../rules/rtu";
import type { RwgMessage } from "./message";

/** The booking events whose change Google hears of, and what a notification would change. */
const TOLD: Record<string, UpdateMask | null> = {
  "booking-created": null,
  "booking-canceled": "status",
  "booking-rescheduled": "startTime,duration",
  // A staffer or service change moves no time, but may change which starts are open.
  "booking-staffer-changed": null,
  "booking-service-replaced": null,
};

/** The fields of a booking event's payload (the booking as the public API renders it) used here. */
const BookingPayload = z.object({
  uuid: z.string(),
  location_uuid: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  timezone: z.string(),
});

let offLogged = false;

/**
 * Installed as the webhooks' event listener (src/app/app.ts): for a booking event of a
 * workspace whose booking server is enabled, queues a notification of the booking (the
 * consumer skips bookings Google did not make, and changes Google made itself) and an
 * availability replace of the local days the booking covers now. Only queues: the calls
 * are the RWG_QUEUE consumer's. One directory read per booking event. Each salon may be its
 * own Google partner account: the messages carry the one its updates go out under.
 */
export async function queueGoogleUpdates(env: Env, event: EventRow): Promise<void> {
  if (!(event.type in TOLD)) return;
  const notify = configOf(env).rwgNotify;
  if (!notify) {
    if (!offLogged) {
      offLogged = true;
      log("info", "reserve with google updates are off (RWG_SERVICE_ACCOUNT_JSON unset)");
    }
    return;
  }
  const parsed = BookingPayload.safeParse(event.payload);
  if (!parsed.success) return;
  // One statement: whether the server is on, and the partner account the updates go out under.
  const partner = await partnerOf(createDb(env.DB), event.workspaceId);
  if (!partner?.enabled) return;
  const partnerId = partner.partnerId ?? notify.partnerId;
  // Neither the salon's own partner id nor the platform's: no account to tell Google under.
  if (!partnerId) return;

  const booking = parsed.data;
  const workspaceId = event.workspaceId;
  const mask = TOLD[event.type];
  const messages: RwgMessage[] = localDays(
    [Date.parse(booking.start_time), Date.parse(booking.end_time) - 1],
    booking.timezone,
  ).map((day) => ({
    kind: "availability",
    workspaceId,
    partnerId,
    locationId: booking.location_uuid,
    ...day,
  }));
  if (mask)
    messages.unshift({ kind: "booking", workspaceId, partnerId, bookingId: booking.uuid, mask });
  await env.RWG_QUEUE.sendBatch(messages.map((body) => ({ body })));
}

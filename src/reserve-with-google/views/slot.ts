import type { Slot, SlotTime } from "../wire/requests";
import type { ResourceIdsOut, SlotOut, SlotTimeOut } from "../wire/responses";
import { int64Out, unset } from "../wire/json";

type ResourceIdsIn = NonNullable<Slot["resources"]>;

const resourcesOut = (r: ResourceIdsIn | undefined): ResourceIdsOut | undefined =>
  r === undefined
    ? undefined
    : unset({
        staff_id: r.staff_id || undefined,
        room_id: r.room_id || undefined,
        party_size: r.party_size || undefined,
      });

/** A requested Slot, written back as Google sent it (proto3 JSON: defaults left out). */
export const slotOut = (s: Slot): SlotOut =>
  unset({
    merchant_id: s.merchant_id || undefined,
    service_id: s.service_id || undefined,
    start_sec: s.start_sec ? int64Out(s.start_sec) : undefined,
    duration_sec: s.duration_sec ? int64Out(s.duration_sec) : undefined,
    availability_tag: s.availability_tag || undefined,
    resources: resourcesOut(s.resources),
    confirmation_mode:
      s.confirmation_mode === "CONFIRMATION_MODE_UNSPECIFIED" ? undefined : s.confirmation_mode,
  });

/** A requested SlotTime, written back as Google sent it. */
export const slotTimeOut = (s: SlotTime): SlotTimeOut =>
  unset({
    service_id: s.service_id || undefined,
    start_sec: s.start_sec ? int64Out(s.start_sec) : undefined,
    duration_sec: s.duration_sec ? int64Out(s.duration_sec) : undefined,
    availability_tag: s.availability_tag || undefined,
    resource_ids: resourcesOut(s.resource_ids),
    confirmation_mode:
      s.confirmation_mode === "CONFIRMATION_MODE_UNSPECIFIED" ? undefined : s.confirmation_mode,
  });

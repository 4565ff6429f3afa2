import { getService, updateServiceCapacity, type ServiceRecord } from "../queries/services";
import type { Scope } from "../../db/scope";
import { notFound } from "../../platform/errors";

export interface ServiceChange {
  /** Seats per session (1..100). */
  capacity: number;
}

/**
 * Changes a service. A new capacity applies to seats booked from now on:
 * sessions already booked keep their bookings (a lower capacity never
 * cancels anyone), and a session takes new seats only while its seats taken
 * are below the new capacity.
 */
export async function updateService(
  scope: Scope,
  id: string,
  change: ServiceChange,
): Promise<ServiceRecord> {
  if (!(await updateServiceCapacity(scope, id, change.capacity))) throw notFound("Service");
  const record = await getService(scope, id, { widgetOnly: false });
  if (!record) throw notFound("Service");
  return record;
}

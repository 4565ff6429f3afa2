import { getService, updateServiceColumns, type ServiceRecord } from "../queries/services";
import type { Scope } from "../../db/scope";
import { notFound } from "../../platform/errors";
import type { PaymentPolicy } from "../rules/payment-policy";
import { storedPolicy } from "./payment-policy";

/** What changes (at least one); an omitted field keeps its value. */
export interface ServiceChange {
  /** Seats per session (1..100). */
  capacity?: number | undefined;
  /** Replaces the policy as a whole; reservations and bookings already made keep their terms. */
  paymentPolicy?: PaymentPolicy | undefined;
}

/**
 * Changes a service. A new payment policy is copied by reservations and
 * bookings made from now on only. A new capacity applies to seats booked from now on:
 * sessions already booked keep their bookings (a lower capacity never
 * cancels anyone), and a session takes new seats only while its seats taken
 * are below the new capacity.
 */
export async function updateService(
  scope: Scope,
  id: string,
  change: ServiceChange,
): Promise<ServiceRecord> {
  const columns = {
    ...(change.capacity !== undefined ? { capacity: change.capacity } : {}),
    ...(change.paymentPolicy ? { paymentPolicy: storedPolicy(change.paymentPolicy) } : {}),
  };
  if (!(await updateServiceColumns(scope, id, columns))) throw notFound("Service");
  const record = await getService(scope, id, { widgetOnly: false });
  if (!record) throw notFound("Service");
  return record;
}

import { engineInputs } from "../calendar/availability/engine-input";
import { itemProblems } from "../calendar/planning/prepare";
import { runBatch } from "../db/client";
import { isGuardFailure } from "../db/constraints";
import { guard } from "../db/guards";
import { loadAvailability } from "../calendar/queries/availability";
import {
  type EntryOwner,
  heldExpiriesIn,
  insertEntry,
  openEntries,
  openEntriesWithin,
  type WaitlistDayRow,
  type WaitlistEntryRow,
} from "./queries/waitlist";
import type { Scope } from "../db/scope";
import { instantToLocalDate } from "../calendar/rules";
import { normaliseLocale } from "../messages/rules/locale";
import { normalisePhone } from "../platform/rules/phone";
import { type Problem, problem } from "../platform/rules/problems";
import { daysBetween, entryWindow, type TimeWindow, WAITLIST, windowDays } from "./rules";
import { visitDurationProblems, visitShapeProblems } from "../platform/rules/public-visit";
import { ApiError, InvalidError } from "../platform/errors";
import { renderWaitlistEntry } from "./views/waitlist-entry";

/** What joining can be wrong about (422), named by the route's fields. */
export type JoinSubject =
  | { is: "location" }
  | { is: "service"; item: number; service: number }
  | { is: "staffer"; item: number; service: number }
  | { is: "quantity"; item: number; service: number }
  | { is: "start"; item: number }
  | { is: "services"; item: number }
  | { is: "phone" }
  | { is: "to" }
  | { is: "from" }
  | { is: "times"; index: number };

export interface JoinRequest {
  locationId: string;
  services: { serviceId: string; stafferId?: string | undefined }[];
  phone: string;
  /** The workspace's country, for a phone written without its country code. */
  country: string;
  firstName: string;
  email?: string | undefined;
  language?: string | undefined;
  from: string;
  to: string;
  times?: TimeWindow[] | undefined;
  /** The key that makes it; a publishable key's visitor (capped) and catalogue (widget only). */
  apiKeyId: string;
  visitor?: string | undefined;
  /** A publishable key's client address as customer messages count it (hashed). */
  messageVisitor?: string | undefined;
}

/** What the widget's bounds call a join in their messages. */
const JOINS = "A waitlist entry with a publishable key waits for";

/** Whose entries for the phone its cap counts: staff's, or this widget visitor's. */
const phoneOwner = (phone: string, visitor: string | undefined): EntryOwner =>
  visitor ? { phone, visitor } : { phone, staffOnly: true };

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Puts a customer on a location's waitlist: one read (the location, the
 * services and who performs them), one batch (the entry, its rows of the
 * matching index, its window recorded for the desk, under the phone's and
 * the visitor's caps decided in the batch itself).
 */
export async function joinWaitlist(scope: Scope, req: JoinRequest) {
  const problems: Problem<JoinSubject>[] = [];
  const phone = normalisePhone(req.phone, req.country);
  if (!phone) problems.push(problem({ is: "phone" }, "Must be a valid phone number."));
  if (daysBetween(req.from, req.to) < 0) {
    problems.push(problem({ is: "to" }, "Must be on or after from."));
  } else if (daysBetween(req.from, req.to) > WAITLIST.maxWindowDays) {
    problems.push(problem({ is: "to" }, `At most ${WAITLIST.maxWindowDays} days after from.`));
  }
  // A widget's entry is shaped like a widget's hold: its offer is one.
  if (req.visitor) problems.push(...visitShapeProblems([{ services: req.services }], JOINS));
  (req.times ?? []).forEach((w, index) => {
    if (minutes(w.end) <= minutes(w.start)) {
      problems.push(problem({ is: "times", index }, "end must be after start."));
    }
  });

  const loaded = await loadAvailability(scope, {
    locationId: req.locationId,
    serviceIds: [...new Set(req.services.map((s) => s.serviceId))],
    fromDate: req.from,
    toDate: req.from,
    widgetOnly: req.visitor !== undefined,
  });
  const inputs = engineInputs(loaded);
  if (!inputs) throw new InvalidError([problem({ is: "location" }, "Unknown location.")]);
  problems.push(...itemProblems([{ start: 0, services: req.services }], loaded, inputs));
  if (req.visitor && problems.every((p) => p.about.is !== "services")) {
    const durations = new Map(loaded.services.map((s) => [s.id, s.duration]));
    const services = req.services.map((s) => ({ durationMin: durations.get(s.serviceId) ?? 0 }));
    problems.push(...visitDurationProblems([{ services }], JOINS));
  }
  const now = Date.now();
  const zone = inputs.rules.timezone;
  const today = instantToLocalDate(now, zone);
  if (problems.every((p) => p.about.is !== "to") && req.to < today) {
    problems.push(
      problem({ is: "to" }, "Must not be in the past (the location's today or later)."),
    );
  }
  // A widget's visitor waits for the coming weeks: an entry far ahead would only hold a
  // phone's place (staff plan as far ahead as they like).
  if (req.visitor && daysBetween(today, req.from) > WAITLIST.maxLeadDays) {
    problems.push(
      problem({ is: "from" }, `At most ${WAITLIST.maxLeadDays} days after the location's today.`),
    );
  }
  if (problems.length > 0 || !phone) throw new InvalidError(problems);

  const window = entryWindow(req.from, req.to, zone);
  const row: WaitlistEntryRow = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    locationId: req.locationId,
    services: JSON.stringify(
      req.services.map((s) => ({ service_uuid: s.serviceId, staffer_uuid: s.stafferId ?? null })),
    ),
    phone,
    firstName: req.firstName,
    email: req.email ?? null,
    locale: normaliseLocale(req.language),
    fromDate: req.from,
    toDate: req.to,
    times: req.times && req.times.length > 0 ? JSON.stringify(req.times) : null,
    windowStart: window.start,
    windowEnd: window.end,
    status: "waiting",
    offerReservationId: null,
    offerStart: null,
    offerEnd: null,
    offerExpiresAt: null,
    offerTokenHash: null,
    passed: "[]",
    bookingId: null,
    apiKeyId: req.apiKeyId,
    visitor: req.visitor ?? null,
    messageVisitor: req.messageVisitor ?? null,
    lapses: 0,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  const days: WaitlistDayRow[] = windowDays(req.from, req.to).flatMap((day) =>
    [...new Set(req.services.map((s) => s.serviceId))].map((serviceId) => ({
      workspaceId: scope.workspaceId,
      locationId: req.locationId,
      day,
      serviceId,
      entryId: row.id,
      createdAt: now,
    })),
  );
  try {
    await runBatch(scope.db, [
      // A phone's places are counted per asker: staff's entries count only staff's, a widget
      // visitor's only its own (for that phone, within its own cap), so a stranger's entries
      // lock the phone out neither at the desk nor in the widget.
      guard(scope, openEntriesWithin(scope, phoneOwner(phone, req.visitor), WAITLIST.perPhone)),
      ...(req.visitor
        ? [guard(scope, openEntriesWithin(scope, { visitor: req.visitor }, WAITLIST.perVisitor))]
        : []),
      ...insertEntry(scope, row, days),
      // Holds already in its window free their time at their expiry: recorded for the desk now.
      heldExpiriesIn(scope, row),
    ]);
  } catch (error) {
    if (!isGuardFailure(error)) throw error;
    throw await capRefusal(scope, phone, req.visitor);
  }
  return renderWaitlistEntry(row);
}

/** Whether a cap refused the entry (else the batch lost a race some other way). */
async function capRefusal(scope: Scope, phone: string, visitor: string | undefined) {
  const phoneFull = (await openEntries(scope, phoneOwner(phone, visitor))) >= WAITLIST.perPhone;
  const visitorFull = visitor && (await openEntries(scope, { visitor })) >= WAITLIST.perVisitor;
  // One answer for either cap, so nobody learns how many entries a phone has.
  if (phoneFull || visitorFull) {
    return new ApiError(
      "too_many_entries",
      `At most ${WAITLIST.perPhone} waitlist entries may wait at once for one phone number, and a booking widget's visitor may make at most ${WAITLIST.perVisitor}; delete one first.`,
    );
  }
  return new ApiError("conflict", "The waitlist changed meanwhile; try again.");
}

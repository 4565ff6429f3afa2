/**
 * A calendar is a staffer's or one unit of a resource. Both are the same kind
 * of object with the same claim protocol; the id tells them apart: a staffer's
 * calendar is named by the staffer's id (as it always was), a unit's by
 * `<resource id>#<unit>`.
 */
export interface CalendarOwnerColumns {
  stafferId: string | null;
  resourceId: string | null;
  unit: number | null;
}

export const unitCalendarId = (resourceId: string, unit: number) => `${resourceId}#${unit}`;

export function calendarIdOf(row: CalendarOwnerColumns): string {
  if (row.stafferId) return row.stafferId;
  if (row.resourceId && row.unit != null) return unitCalendarId(row.resourceId, row.unit);
  throw new Error("calendar entry without an owner");
}

/** The `calendar_entries` owner columns of a calendar id. */
export function ownerColumns(calendarId: string): CalendarOwnerColumns {
  const hash = calendarId.indexOf("#");
  if (hash < 0) return { stafferId: calendarId, resourceId: null, unit: null };
  return {
    stafferId: null,
    resourceId: calendarId.slice(0, hash),
    unit: Number(calendarId.slice(hash + 1)),
  };
}

export const isUnitCalendar = (calendarId: string) => calendarId.includes("#");

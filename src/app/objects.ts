import { CalendarSyncObject } from "../external-calendars/object/calendar-sync";
import { WaitlistDeskObject } from "../waitlist/object/waitlist-desk";
import { dispatchEffects } from "./after-write";

/*
 * The Durable Objects that write outside a request, given the one after-write
 * dispatcher here, at the composition root: their modules sit below the
 * capabilities it reaches (webhooks, messages, the waitlist) and import none
 * of them for it.
 */

/** One external calendar's refresh clock (binding CALENDAR_SYNCS). */
export class CalendarSync extends CalendarSyncObject {
  protected readonly dispatch = dispatchEffects;
}

/** One location's waitlist desk (binding WAITLIST_DESKS). */
export class WaitlistDesk extends WaitlistDeskObject {
  protected readonly dispatch = dispatchEffects;
}

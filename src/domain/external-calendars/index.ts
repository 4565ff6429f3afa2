export { busyFromIcs, ICS_LIMITS, type BusyOptions } from "./busy-from-ics";
export { IcsError, type IcsRefusal } from "./errors";

export {
  busyFromIcs,
  readBusy,
  ICS_LIMITS,
  type BusyOptions,
  type BusyReading,
} from "./busy-from-ics";
export { IcsError, type IcsRefusal } from "./errors";

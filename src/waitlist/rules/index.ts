export { firstWaitlistFit, type WaitlistFit } from "./fit";
export {
  daysBetween,
  entryWindow,
  localDays,
  overlapsAny,
  PUBLIC_OFFERS,
  type TimeWindow,
  WAITLIST,
  windowDays,
  withinTimes,
} from "./rules";

export { firstWaitlistFit, type WaitlistFit } from "./fit";
export {
  daysBetween,
  entryWindow,
  localDays,
  overlapsAny,
  type TimeWindow,
  WAITLIST,
  windowDays,
  withinTimes,
} from "./rules";

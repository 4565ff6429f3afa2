export { type AlternativeStart, type AlternativesInput, nearestStarts } from "./alternatives";
export { mergeBusy } from "./merged-busy";
export {
  type Assignment,
  type CartDay,
  type CartService,
  findCartStart,
  firstCartFitPerDay,
  firstFitOn,
  prepare,
  type Prepared,
  nextCartFit,
  takeUnits,
  type TakenUnits,
} from "./cart";
export { checkStart } from "./check";
export { MAX_CAPACITY, sessionAskOf, sessionKey } from "./sessions";
export {
  firstFreeUnit,
  freeUnits,
  type PreparedResource,
  type PreparedUnit,
  prepareResource,
} from "./resources";
export {
  type ClockTime,
  type DisplayDay,
  type DisplaySlot,
  type RenderableDay,
  renderDays,
} from "./render";
export { type MoveStartsInput, moveStarts } from "./moves";
export { mergeSpans, searchSlots } from "./search";
export type * from "./types";
export {
  instantToLocalDate,
  isoWeekday,
  localDateRange,
  localDateTimeToInstant,
  OffsetTable,
} from "./zone";

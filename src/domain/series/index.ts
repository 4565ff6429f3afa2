export { expandSeries } from "./expand";
export { formatRule, MAX_OCCURRENCES, parseRule, type SeriesRule } from "./rule";

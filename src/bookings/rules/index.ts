export { expandSeries, seriesDateSpan } from "./expand";
export { formatRule, MAX_OCCURRENCES, parseRule, type SeriesRule } from "./rule";

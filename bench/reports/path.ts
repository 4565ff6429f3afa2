/** Where the bench Worker (bench/distance/reports-hook.ts) takes the reports bench's SQL. */
export const BENCH_SQL_PATH = "/__bench/reports/sql";
/** …and runs a report use-case of src/reports there. */
export const BENCH_REPORT_PATH = "/__bench/reports/report";

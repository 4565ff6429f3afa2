/** What one fuzz shard reports (one `FUZZ_SUMMARY` line), read by the reporter under Node. */
export interface Summary {
  shard: number;
  seed: number;
  passes: number;
  requests: number;
  setup_requests: number;
  by_status: Record<string, number>;
  server_errors: number;
  error_body_violations: number;
  rows_left_by_rejections: number;
  response_schema_violations: number;
  violations: number;
  soft: Record<string, number>;
  /** Soft findings by kind and operation. */
  soft_by_op: Record<string, Record<string, number>>;
  /** Why valid requests were refused: "<op> → <status> <message>" counts. */
  refusals: Record<string, number>;
  ops_never_2xx: string[];
  valid_success_rate: Record<string, string>;
  /** Requests by case kind (valid, body, whole, path, query, auth, method, idempotency). */
  cases: Record<string, number>;
  /** Body mutations sent, by change (the place left out): "maxItems+1", "bad uuid", … */
  mutations: Record<string, number>;
  /** Wall time of each pass: flat, where SELF's wrapper growth made each slower than the last. */
  pass_ms: number[];
  duration_ms: number;
}

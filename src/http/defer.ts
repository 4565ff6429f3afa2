import type { Defer } from "../platform/defer";
import type { RequestVariables } from "./env";

/** Tasks that run once the request's answer is ready (`requestContext` starts them), on either API. */
export const deferAfterResponse =
  (c: { var: Pick<RequestVariables, "afterResponse"> }): Defer =>
  (task) =>
    c.var.afterResponse(task);

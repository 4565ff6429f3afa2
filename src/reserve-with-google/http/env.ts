import type { AuthenticatedWorkspace, RequestDeps, RequestVariables } from "../../http/env";
import type { Env } from "../../platform/env";

/** The booking server's requests, once Google's credentials named the workspace. */
export interface RwgEnv {
  Bindings: Env;
  Variables: RequestVariables & {
    workspace: AuthenticatedWorkspace;
    /** A Google user's bookings are a customer's: every policy of the public API holds. */
    deps: RequestDeps;
  };
}

import type { EventRequest } from "./events";
import type { State } from "./state";
import type { Outbox } from "./webhooks-out";

/** What an operation works with: the state, where its events go, and who asked. */
export interface Ctx {
  state: State;
  outbox: Outbox;
  /** The server's own base URL (hosted pages live there). */
  baseUrl: string;
  request: EventRequest;
  /** A `decline` fault matched the request: a charge it confirms is declined. */
  declines?: boolean;
}

/**
 * What a request got wrong, in the domain's words. A use-case (or a rule
 * here) names the thing it refuses, `{ is: "staffer", item: 1, service: 0 }`
 * (the staffer of the second item's first service), never the request field
 * that carried it: a single booking and a cart name that staffer differently,
 * and only their routes know how (`withFields`, src/http/request-fields.ts).
 */
export type Subject = { readonly is: string; readonly [index: string]: string | number };

/** One thing refused and why (the messages are the API's, word for word). */
export interface Problem<S extends Subject = Subject> {
  readonly about: S;
  readonly messages: readonly string[];
}

export const problem = <S extends Subject>(about: S, message: string): Problem<S> => ({
  about,
  messages: [message],
});

/**
 * The things a request to place items on calendars (a booking, a cart, a
 * reservation) can be wrong about: items and their services by position.
 */
export type ItemSubject =
  | { is: "location" }
  /** When an item starts. */
  | { is: "start"; item: number }
  /** An item's list of services (their count). */
  | { is: "services"; item: number }
  | { is: "service"; item: number; service: number }
  /** The staffer asked for one service of an item. */
  | { is: "staffer"; item: number; service: number }
  /** The seats asked for one service of an item (a group service's, 1..capacity). */
  | { is: "quantity"; item: number; service: number };

import { configOf, type Settings } from "./config";

/**
 * The origin every link the API hands out is built on (manage, calendar and
 * offer links, in messages and answers): the configured `PUBLIC_ORIGIN`,
 * never the request's Host, which whoever sends the request chooses (a forged
 * Host would otherwise put the forger's site into a salon's confirmation).
 */
export const publicOrigin = (env: Settings): string => configOf(env).publicOrigin;

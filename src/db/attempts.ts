import { isGuardFailure } from "./constraints";
import { probe } from "../platform/failpoints";

/**
 * How every change to a stored record (a booking, an order) meets another
 * change of the same record: its write commits only if the record is still at
 * the version it read. The one that loses reads again and plans once more on
 * fresh state, where it usually finds the reason to refuse (already paid,
 * already cancelled); losing twice answers `gaveUp`.
 */
export interface Attempts<R, T> {
  /** Names the probe counting first refusals (`<name>.guard_refused`), for the race tests. */
  name: string;
  /** Reads the record and what the change needs besides, in one round trip. */
  read: () => Promise<R>;
  /** Plans on what was read and writes; `previous` is what the lost attempt read. */
  attempt: (read: R, previous: R | undefined) => Promise<T>;
  /** The write lost to another change of the record (its guard refused, its entries moved). */
  lost: (error: unknown) => boolean;
  gaveUp: () => Error;
  /** Waits before the second read, so the write that won can confirm its calendars first. */
  pauseMs?: number;
}

export async function attempt<R, T>(spec: Attempts<R, T>): Promise<T> {
  const first = await spec.read();
  try {
    return await spec.attempt(first, undefined);
  } catch (error) {
    if (!spec.lost(error)) throw error;
    if (isGuardFailure(error)) probe(`${spec.name}.guard_refused`);
  }
  if (spec.pauseMs) await new Promise((resolve) => setTimeout(resolve, spec.pauseMs));
  const again = await spec.read();
  try {
    return await spec.attempt(again, first);
  } catch (error) {
    if (!spec.lost(error)) throw error;
    if (isGuardFailure(error)) probe(`${spec.name}.guard_refused`);
    throw spec.gaveUp();
  }
}

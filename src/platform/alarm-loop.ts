import { log } from "./log";

/**
 * The part of a Durable Object's storage a loop uses (`ctx.storage` has it;
 * the unit tests hand a fake).
 */
export interface AlarmStorage {
  get<T>(keys: string[]): Promise<Map<string, T>>;
  put<T>(entries: Record<string, T>): Promise<void>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
  deleteAll(): Promise<void>;
}

/** What a loop works on (a workspace, a location, an external calendar), by the storage keys it is kept under. */
export type Subject<K extends string> = Record<K, string>;

/**
 * When a run wants the next one: at an instant (ms since the epoch), `null`
 * for not until something wakes the loop, `"stop"` to forget the subject and
 * never run again.
 */
export type Next = number | null | "stop";

export interface AlarmLoopSpec<K extends string> {
  /** The storage keys naming the subject, one string each; a loop without all of them does nothing. */
  keys: readonly K[];
  /** One round of the loop's work. */
  run: (subject: Subject<K>) => Promise<Next>;
  /** A round that threw runs again this much later (unless something woke the loop earlier). */
  retryMs: number;
  /**
   * Rounds on a fixed period: the next round is set before each one runs, so
   * a round the runtime stops (CPU, memory, an eviction) does not stop the loop.
   */
  everyMs?: number;
  /** Logged, with `fields(subject)`, when a round throws. */
  failure: string;
  fields: (subject: Subject<K>) => Record<string, unknown>;
  now?: () => number;
}

/**
 * A background loop on a Durable Object's alarm. It keeps no schedule of its
 * own: D1 is the schedule, the alarm only the next moment to read it, so the
 * loop stores just what it works on. The alarm only ever moves earlier when
 * woken, and a round that fails is tried again; the runtime retries an alarm
 * that throws, so a round may run more than once and each must be safe to repeat.
 */
export class AlarmLoop<K extends string> {
  private readonly now: () => number;

  constructor(
    private readonly storage: AlarmStorage,
    private readonly spec: AlarmLoopSpec<K>,
  ) {
    this.now = spec.now ?? Date.now;
  }

  /** Keeps the subject and brings the alarm forward to `at` (never later than it is set). */
  async wakeAt(subject: Subject<K>, at: number): Promise<void> {
    await this.storage.put<string>(subject);
    await this.bringForward(at);
  }

  /** Forgets the subject: an alarm still set finds nothing and ends the loop. */
  async stop(): Promise<void> {
    await this.storage.deleteAll();
  }

  /** The Durable Object's `alarm()`: one round, then the alarm set for the next. */
  async alarm(): Promise<void> {
    const subject = await this.subject();
    if (!subject) return;
    const { everyMs, retryMs } = this.spec;
    if (everyMs !== undefined) await this.storage.setAlarm(this.now() + everyMs);
    let next: Next;
    try {
      next = await this.spec.run(subject);
    } catch (error) {
      log("error", this.spec.failure, { ...this.spec.fields(subject), error });
      next = this.now() + retryMs;
    }
    if (next === "stop") {
      await this.storage.deleteAlarm();
      await this.storage.deleteAll();
    } else if (next !== null) {
      // A wake-up during the round may have set an earlier alarm already: the earlier stays.
      await this.bringForward(next);
    }
  }

  private async subject(): Promise<Subject<K> | null> {
    const stored = await this.storage.get<string>([...this.spec.keys]);
    const subject: Partial<Subject<K>> = {};
    for (const key of this.spec.keys) {
      const value = stored.get(key);
      if (!value) return null;
      subject[key] = value;
    }
    return subject as Subject<K>;
  }

  private async bringForward(at: number): Promise<void> {
    const current = await this.storage.getAlarm();
    if (current === null || at < current) await this.storage.setAlarm(at);
  }
}

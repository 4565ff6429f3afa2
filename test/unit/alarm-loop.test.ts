import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AlarmLoop,
  type AlarmLoopSpec,
  type AlarmStorage,
  type Next,
} from "../../src/platform/alarm-loop";

/** A Durable Object's storage as the loop sees it: string values and one alarm. */
class FakeStorage implements AlarmStorage {
  values = new Map<string, unknown>();
  alarm: number | null = null;
  async get<T>(keys: string[]) {
    const found = new Map<string, T>();
    for (const k of keys) if (this.values.has(k)) found.set(k, this.values.get(k) as T);
    return found;
  }
  async put<T>(entries: Record<string, T>) {
    for (const [k, v] of Object.entries(entries)) this.values.set(k, v);
  }
  async getAlarm() {
    return this.alarm;
  }
  async setAlarm(at: number) {
    this.alarm = at;
  }
  async deleteAlarm() {
    this.alarm = null;
  }
  async deleteAll() {
    this.values.clear();
  }
  /** What the runtime does when the alarm fires: it is no longer set while `alarm()` runs. */
  async fire(loop: { alarm(): Promise<void> }) {
    this.alarm = null;
    await loop.alarm();
  }
}

const NOW = 1_000_000;

function loopWith(
  run: (subject: Record<string, string>) => Promise<Next>,
  more: Partial<AlarmLoopSpec<"workspace" | "location">> = {},
) {
  const storage = new FakeStorage();
  const loop = new AlarmLoop(storage, {
    keys: ["workspace", "location"],
    run,
    retryMs: 30_000,
    failure: "test loop failed",
    fields: ({ workspace }) => ({ workspace_id: workspace }),
    now: () => NOW,
    ...more,
  });
  return { storage, loop };
}

const subject = { workspace: "w1", location: "l1" };

describe("AlarmLoop (the background loops' alarm: message clock, waitlist desk, calendar sync)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is brought forward by a wake-up, never pushed later", async () => {
    const { storage, loop } = loopWith(async () => null);
    await loop.wakeAt(subject, NOW + 5_000);
    expect(storage.alarm).toBe(NOW + 5_000);
    await loop.wakeAt(subject, NOW + 9_000);
    expect(storage.alarm).toBe(NOW + 5_000);
    await loop.wakeAt(subject, NOW + 1_000);
    expect(storage.alarm).toBe(NOW + 1_000);
    expect(Object.fromEntries(storage.values)).toEqual(subject);
  });

  it("runs on its subject and sets itself for the time the run asks; null leaves it unset", async () => {
    const seen: Record<string, string>[] = [];
    let next: Next = NOW + 60_000;
    const { storage, loop } = loopWith(async (s) => {
      seen.push(s);
      return next;
    });
    await loop.wakeAt(subject, NOW);
    await storage.fire(loop);
    expect(seen).toEqual([subject]);
    expect(storage.alarm).toBe(NOW + 60_000);
    next = null;
    await storage.fire(loop);
    expect(storage.alarm).toBeNull();
  });

  it("keeps an earlier wake-up made while the run went on", async () => {
    const { storage, loop } = loopWith(async () => {
      await loop.wakeAt(subject, NOW + 1_000);
      return NOW + 60_000;
    });
    await loop.wakeAt(subject, NOW);
    await storage.fire(loop);
    expect(storage.alarm).toBe(NOW + 1_000);
  });

  it("logs a run that throws and tries again retryMs later", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { storage, loop } = loopWith(async () => {
      throw new Error("D1 unavailable");
    });
    await loop.wakeAt(subject, NOW);
    await storage.fire(loop);
    expect(storage.alarm).toBe(NOW + 30_000);
    expect(errors).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(errors.mock.calls[0]?.[0]));
    expect(line).toMatchObject({ message: "test loop failed", workspace_id: "w1" });
  });

  it("does nothing without its whole subject (a clock that never was woken, or was stopped)", async () => {
    const run = vi.fn(async () => NOW);
    const { storage, loop } = loopWith(run);
    await storage.put({ workspace: "w1" });
    storage.alarm = NOW;
    await storage.fire(loop);
    expect(run).not.toHaveBeenCalled();
    expect(storage.alarm).toBeNull();
  });

  it("on a period: the next round is set before the run, and a failed run does not push it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const alarms: (number | null)[] = [];
    let fail = false;
    const { storage, loop } = loopWith(
      async () => {
        alarms.push(storage.alarm);
        if (fail) throw new Error("calendar object unavailable");
        return null;
      },
      { everyMs: 900_000, retryMs: 900_000 },
    );
    await loop.wakeAt(subject, NOW + 900_000);
    await storage.fire(loop);
    expect(alarms).toEqual([NOW + 900_000]);
    expect(storage.alarm).toBe(NOW + 900_000);
    fail = true;
    await storage.fire(loop);
    expect(storage.alarm).toBe(NOW + 900_000);
  });

  it("stops for good when the run says so, and when stopped", async () => {
    const { storage, loop } = loopWith(async () => "stop", { everyMs: 900_000 });
    await loop.wakeAt(subject, NOW);
    await storage.fire(loop);
    expect(storage.alarm).toBeNull();
    expect(storage.values.size).toBe(0);

    await loop.wakeAt(subject, NOW);
    await loop.stop();
    expect(storage.values.size).toBe(0);
  });
});

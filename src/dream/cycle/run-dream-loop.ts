import { stat } from "node:fs/promises";
import type { DreamCycleRecord } from "./dream-cycle-record.js";
import type { DreamStopReason, DreamStopSignals } from "./dream-stop-signals.js";

/** When the host counts as idle (`--idle-after`). */
export interface DreamIdleOptions {
  /** Idle minutes before a cycle may start. */
  afterMinutes: number;
  /**
   * A file the host touches or appends to when it is busy: idle means its last
   * modification is at least `afterMinutes` old. Without one, idle means
   * `afterMinutes` since the loop started.
   */
  activityFile?: string;
}

/** Options of `runDreamLoop`. */
export interface DreamLoopOptions {
  /** One cycle (runDreamCycle bound to its workspace and models). */
  runCycle: () => Promise<DreamCycleRecord>;
  /** Seconds to rest after a cycle: the frontier's adaptive cooldown (5–180 s by default). */
  cooldownSeconds: () => number;
  stopSignals: DreamStopSignals;
  /** Waits `milliseconds` (tests pass one that returns at once). */
  sleep: (milliseconds: number) => Promise<void>;
  /** The clock of the idle rule and the cooldown. */
  now: () => Date;
  /** How often the stop signals are checked while resting, in milliseconds. Default 1000. */
  pollMilliseconds?: number;
  /** Cycles at most (the `--once` trigger is 1). Default: until a stop signal. */
  maxCycles?: number;
  idle?: DreamIdleOptions;
  /** Told of every finished cycle and of each cooldown. */
  onCycle?: (record: DreamCycleRecord, cooldownSeconds: number | null) => void;
}

/** What a loop did. */
export interface DreamLoopResult {
  cycles: DreamCycleRecord[];
  stoppedBy: DreamStopReason;
}

/**
 * The continuous trigger: cycles back to back with the frontier's adaptive
 * cooldown between them, until SIGINT (an AbortSignal), a stop file or a new
 * inbox line — checked before each cycle and every poll while resting or
 * waiting for the host to be idle. A cycle that has started finishes: its
 * records stay whole.
 */
export async function runDreamLoop(options: DreamLoopOptions): Promise<DreamLoopResult> {
  const cycles: DreamCycleRecord[] = [];
  const poll = options.pollMilliseconds ?? 1000;
  const startedAt = options.now().getTime();
  const rest = async (until: () => Promise<boolean>): Promise<DreamStopReason | null> => {
    for (;;) {
      const stop = await options.stopSignals.check();
      if (stop !== null) return stop;
      if (await until()) return null;
      await options.sleep(poll);
    }
  };
  for (;;) {
    if (options.idle !== undefined) {
      const idle = options.idle;
      const stop = await rest(async () => options.now().getTime() - (await lastActivity(idle, startedAt)) >= idle.afterMinutes * 60_000);
      if (stop !== null) return { cycles, stoppedBy: stop };
    } else {
      const stop = await options.stopSignals.check();
      if (stop !== null) return { cycles, stoppedBy: stop };
    }
    const record = await options.runCycle();
    cycles.push(record);
    if (options.maxCycles !== undefined && cycles.length >= options.maxCycles) {
      options.onCycle?.(record, null);
      return { cycles, stoppedBy: "max-cycles" };
    }
    const cooldown = options.cooldownSeconds();
    options.onCycle?.(record, cooldown);
    const restUntil = options.now().getTime() + cooldown * 1000;
    const stop = await rest(async () => options.now().getTime() >= restUntil);
    if (stop !== null) return { cycles, stoppedBy: stop };
  }
}

/** Milliseconds since the epoch of the host's last activity: the activity file's mtime, else the loop's start. */
async function lastActivity(idle: DreamIdleOptions, startedAt: number): Promise<number> {
  if (idle.activityFile === undefined) return startedAt;
  try {
    return (await stat(idle.activityFile)).mtimeMs;
  } catch {
    // No activity file yet: nothing has happened since the loop started.
    return startedAt;
  }
}

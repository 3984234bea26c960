import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DreamCycleRecord } from "../../../src/dream/cycle/dream-cycle-record.js";
import { DreamStopSignals } from "../../../src/dream/cycle/dream-stop-signals.js";
import { runDreamLoop, type DreamLoopOptions } from "../../../src/dream/cycle/run-dream-loop.js";
import { temporaryFolder } from "./cycle-helpers.js";

/** A loop over fake cycles whose clock only the sleeper moves; `afterCycle` runs after each cycle. */
async function loop(afterCycle: (cycle: number, folder: string, controller: AbortController) => void, extra: Partial<DreamLoopOptions> = {}) {
  const folder = temporaryFolder();
  const controller = new AbortController();
  let time = 0;
  const sleeps: number[] = [];
  const stopSignals = await DreamStopSignals.watch({ signal: controller.signal, stopFile: join(folder, "STOP"), inboxFile: join(folder, "dream_inbox.md") });
  let count = 0;
  const result = await runDreamLoop({
    runCycle: async () => {
      count++;
      afterCycle(count, folder, controller);
      return { cycle: count } as unknown as DreamCycleRecord;
    },
    cooldownSeconds: () => 5,
    stopSignals,
    sleep: async (milliseconds) => {
      sleeps.push(milliseconds);
      time += milliseconds;
    },
    now: () => new Date(time),
    ...extra,
  });
  return { result, sleeps, time };
}

describe("runDreamLoop", () => {
  it("stops on SIGINT (an aborted signal) after the cycle in flight", async () => {
    const { result, sleeps } = await loop((cycle, _folder, controller) => cycle === 2 && controller.abort());
    expect(result.stoppedBy).toBe("signal");
    expect(result.cycles).toHaveLength(2);
    // One 5-second cooldown between cycle 1 and 2, polled each second.
    expect(sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it("stops when the stop file appears", async () => {
    const { result } = await loop((cycle, folder) => cycle === 3 && writeFileSync(join(folder, "STOP"), ""));
    expect(result).toMatchObject({ stoppedBy: "stop-file" });
    expect(result.cycles).toHaveLength(3);
  });

  it("stops on a line appended to the inbox, not on lines that were there before", async () => {
    const { result } = await loop((cycle, folder) => {
      if (cycle === 1) writeFileSync(join(folder, "dream_inbox.md"), "");
      if (cycle === 2) appendFileSync(join(folder, "dream_inbox.md"), "please stop\n");
    });
    expect(result.stoppedBy).toBe("inbox");
    expect(result.cycles).toHaveLength(2);
  });

  it("runs one cycle with maxCycles 1 (--once) and waits for the idle time before it", async () => {
    const { result, time } = await loop(() => undefined, { maxCycles: 1, idle: { afterMinutes: 2 } });
    expect(result).toMatchObject({ stoppedBy: "max-cycles" });
    expect(result.cycles).toHaveLength(1);
    expect(time).toBe(120_000);
  });
});

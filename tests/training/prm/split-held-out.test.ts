import { describe, expect, it } from "vitest";
import { isPrmHeldOut, splitHeldOut } from "../../../src/training/prm/split-held-out.js";

describe("splitHeldOut", () => {
  it("holds out about the asked share of tasks, every prefix of a task on the same side", () => {
    const examples = Array.from({ length: 2000 }, (_, index) => ({ task: `${index % 500}+1`, cluster: "c", prefix: String(index), label: 1 }));
    const { training, heldOut } = splitHeldOut(examples, 0.2);
    expect(training.length + heldOut.length).toBe(2000);
    const heldOutTasks = new Set(heldOut.map((example) => example.task));
    expect(heldOutTasks.size / 500).toBeGreaterThan(0.16);
    expect(heldOutTasks.size / 500).toBeLessThan(0.24);
    expect(training.some((example) => heldOutTasks.has(example.task))).toBe(false);
    // Deterministic, and monotone in the fraction.
    expect(splitHeldOut(examples, 0.2)).toEqual({ training, heldOut });
    expect(isPrmHeldOut("1+1", 0)).toBe(false);
    expect(isPrmHeldOut("1+1", 1)).toBe(true);
  });
});

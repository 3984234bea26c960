import { describe, expect, it } from "vitest";
import { isHeldOut, parseHeldOutRule } from "../../../src/core/held-out/held-out-rule.js";
import { splitHeldOut } from "../../../src/core/held-out/split-held-out.js";

describe("splitHeldOut", () => {
  it("puts every item on exactly one side, each side in the items' order", () => {
    const items = Array.from({ length: 100 }, (_, index) => ({ id: index }));
    const { training, heldOut } = splitHeldOut(items, (item) => item.id % 3 === 0);
    expect(heldOut.map((item) => item.id)).toEqual(items.filter((item) => item.id % 3 === 0).map((item) => item.id));
    expect(training.map((item) => item.id)).toEqual(items.filter((item) => item.id % 3 !== 0).map((item) => item.id));
  });

  it("splits by a rule over a key of each item: items of one key on the same side", () => {
    const items = Array.from({ length: 2000 }, (_, index) => ({ task: `${index % 500}+1`, prefix: String(index) }));
    const rule = parseHeldOutRule({ rule: "fraction", fraction: 0.2, salt: "s" });
    const { training, heldOut } = splitHeldOut(items, (item) => isHeldOut(item.task, rule));
    expect(training.length + heldOut.length).toBe(2000);
    const heldOutTasks = new Set(heldOut.map((item) => item.task));
    expect(training.some((item) => heldOutTasks.has(item.task))).toBe(false);
    expect(heldOutTasks.size / 500).toBeGreaterThan(0.16);
    expect(heldOutTasks.size / 500).toBeLessThan(0.24);
  });
});

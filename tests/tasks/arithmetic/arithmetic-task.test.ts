import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { clusterName, clusterOf, parseClusterName } from "../../../src/tasks/arithmetic/arithmetic-cluster.js";
import { ARITHMETIC_HELD_OUT, arithmeticProblems, clusterNames, problemsOfSplit, sampleProblem } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import { isHeldOut } from "../../../src/core/held-out/held-out-rule.js";

describe("arithmetic clusters", () => {
  it.each([
    [7, "add", 5, "add-1x1-carry"],
    [23, "add", 45, "add-2x2-no-carry"],
    [50, "add", 50, "add-2x2-carry"],
    [95, "add", 7, "add-2x1-carry"],
    [23, "subtract", 7, "subtract-2x1-borrow"],
    [7, "subtract", 23, "subtract-1x2-borrow"],
    [3, "subtract", 5, "subtract-1x1-no-borrow"],
    [45, "subtract", 23, "subtract-2x2-no-borrow"],
  ] as const)("%i %s %i is %s", (left, operation, right, name) => {
    expect(clusterName(clusterOf(left, operation, right))).toBe(name);
    expect(parseClusterName(name)).toEqual(clusterOf(left, operation, right));
  });

  it("refuses names that are not clusters", () => {
    expect(parseClusterName("add-1x1-borrow")).toBeUndefined();
    expect(parseClusterName("multiply-1x1-carry")).toBeUndefined();
  });
});

describe("the arithmetic task", () => {
  it("has 20,000 problems with true answers, about a tenth held out by hash", () => {
    const problems = arithmeticProblems();
    expect(problems).toHaveLength(20_000);
    expect(problems.find((problem) => problem.text === "7-23")?.answer).toBe(-16);
    const heldOut = problemsOfSplit("held-out");
    expect(heldOut.length).toBeGreaterThan(1_800);
    expect(heldOut.length).toBeLessThan(2_200);
    // Exactly the problems FNV-1a 32 of the text ≡ 0 (mod 10) held out when the bundled base was pretrained.
    expect(heldOut).toEqual(problems.filter((problem) => fnv1aText(problem.text) % 10 === 0));
    expect(problemsOfSplit("train").length + heldOut.length).toBe(20_000);
  });

  it("samples training problems of the asked cluster only, never held-out ones", () => {
    const random = new RandomStream("sample");
    for (const cluster of clusterNames()) {
      for (let draw = 0; draw < 20; draw++) {
        const problem = sampleProblem(cluster, random);
        expect(problem.cluster).toBe(cluster);
        expect(isHeldOut(problem.text, ARITHMETIC_HELD_OUT)).toBe(false);
      }
    }
    // 2 operations × 4 digit shapes × regrouping, less subtract-1x1-borrow: one-digit numbers never borrow.
    expect(clusterNames()).toHaveLength(15);
    expect(clusterNames()).not.toContain("subtract-1x1-borrow");
  });
});

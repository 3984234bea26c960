import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KernelFileError } from "../../../src/tournament/errors/index.js";
import { Kernel } from "../../../src/tournament/kernel/kernel.js";
import { parseKernel } from "../../../src/tournament/kernel/load-kernel.js";

/** Fixed by default so CI is deterministic; set SELFPLAY_FUZZ_SEED to explore, and the seed printed reproduces a failure. */
const SEED = Number(process.env.SELFPLAY_FUZZ_SEED ?? 22);
const RUNS = 400;
const SHIPPED = ["constitutions/constitution-0.1.0.yaml", "constitutions/constitution-0.2.0.yaml"].map((path) => readFileSync(path, "utf8"));

/** One edit of a kernel's text: delete a slice, insert YAML-significant text, repeat a line (blown up), or swap two lines. */
const editArbitrary = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.nat(40) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("*a", "&a ", "[", "{", "]", ": ", "\n- ", "\n  x: *nowhere\n", "!!binary ", "<<: *a\n", "\t", "'", '"', "#", "0x10", "1e999", "~")) }),
  fc.record({ kind: fc.constant("repeat" as const), line: fc.nat(), times: fc.integer({ min: 2, max: 3_000 }) }),
  fc.record({ kind: fc.constant("swap" as const), line: fc.nat(), other: fc.nat() }),
);
type Edit = typeof editArbitrary extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(text: string, edit: Edit): string {
  const lines = text.split("\n");
  switch (edit.kind) {
    case "delete": {
      const at = edit.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + edit.length);
    }
    case "insert": {
      const at = edit.at % (text.length + 1);
      return text.slice(0, at) + edit.text + text.slice(at);
    }
    case "repeat": {
      const index = edit.line % lines.length;
      return [...lines.slice(0, index + 1), ...Array<string>(edit.times).fill(lines[index] ?? ""), ...lines.slice(index + 1)].join("\n");
    }
    case "swap": {
      const [first, second] = [edit.line % lines.length, edit.other % lines.length];
      [lines[first], lines[second]] = [lines[second] ?? "", lines[first] ?? ""];
      return lines.join("\n");
    }
  }
}

describe(`random edits of the shipped kernels (fast-check seed ${SEED}, ${RUNS} runs)`, () => {
  it("load or fail with KernelFileError, nothing else, each within a second", { timeout: 120_000 }, () => {
    console.log(`kernel file fuzz: seed ${SEED}, ${RUNS} runs (SELFPLAY_FUZZ_SEED=${SEED} reproduces)`);
    const details = fc.check(
      fc.property(fc.constantFrom(...SHIPPED), fc.array(editArbitrary, { minLength: 1, maxLength: 4 }), (shipped, edits) => {
        const text = edits.reduce(applyEdit, shipped);
        const started = performance.now();
        let outcome: unknown;
        try {
          outcome = parseKernel(text, "k.yaml");
        } catch (error) {
          outcome = error;
        }
        const elapsed = performance.now() - started;
        if (!(outcome instanceof Kernel || outcome instanceof KernelFileError)) throw new Error(`parseKernel ended in ${String(outcome)}`);
        if (elapsed > 1_000) throw new Error(`parseKernel took ${Math.round(elapsed)} ms`);
      }),
      { numRuns: RUNS, seed: SEED, interruptAfterTimeLimit: 100_000, markInterruptAsFailure: true },
    );
    // Every case ran (none cut short by the time limit) and none failed; a failure names its counterexample.
    expect(details.failed, details.failed ? fc.defaultReportMessage(details) : "").toBe(false);
    expect(details.numRuns).toBe(RUNS);
  });
});

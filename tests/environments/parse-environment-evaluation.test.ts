import { describe, expect, it } from "vitest";
import { EnvironmentModuleError } from "../../src/environments/errors/index.js";
import { parseEnvironmentEvaluation } from "../../src/environments/parse-environment-evaluation.js";

describe("parseEnvironmentEvaluation: what evaluate() returned, checked before the run logs it", () => {
  it("keeps heldOutAccuracy and n and leaves a task's own extra keys out", () => {
    expect(parseEnvironmentEvaluation({ heldOutAccuracy: 0.25, n: 4, correct: 1, byCluster: {} }, "arithmetic")).toEqual({ heldOutAccuracy: 0.25, n: 4 });
  });

  it("refuses another name for the figure, naming what came back, the field and the rename", () => {
    const parse = () => parseEnvironmentEvaluation({ accuracy: 0.5, n: 3 }, "./my-environment.js");
    expect(parse).toThrow(EnvironmentModuleError);
    expect(parse).toThrow(
      /^environment \.\/my-environment\.js: evaluate\(\) returned \{accuracy, n\}: expected \{heldOutAccuracy, n\} — .*; "heldOutAccuracy": missing; expected a share from 0 to 1 \(a percentage divided by 100\) — rename accuracy to heldOutAccuracy$/,
    );
  });

  it("refuses a percentage, a fractional n and a value that is not an object", () => {
    expect(() => parseEnvironmentEvaluation({ heldOutAccuracy: 50, n: 4 }, "x")).toThrow(/returned \{heldOutAccuracy, n\}: .*; "heldOutAccuracy": got 50; expected a share from 0 to 1/);
    expect(() => parseEnvironmentEvaluation({ heldOutAccuracy: 0.5, n: 2.5 }, "x")).toThrow(/"n": got 2\.5; expected an integer ≥ 0$/);
    expect(() => parseEnvironmentEvaluation(0.5, "x")).toThrow(/evaluate\(\) returned 0\.5: expected \{heldOutAccuracy, n\}.*; expected an object$/);
    expect(() => parseEnvironmentEvaluation(undefined, "x")).toThrow(/evaluate\(\) returned undefined: expected/);
  });
});

import { describe, expect, it } from "vitest";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { assertFrontierFits } from "../../../src/training/loop/assert-frontier-fits.js";
import { TrainingConfigurationSchema } from "../../../src/training/loop/training-configuration.js";

const configuration = (frontier: object) => TrainingConfigurationSchema.parse({ frontier });
const rows = [{ prompt: "1+1=", answer: "2", kind: "a" }];

describe("assertFrontierFits", () => {
  it("refuses a weighting frontier or adaptive groups on an environment without clusters, naming the field and the fix", async () => {
    const unclustered = await createDatasetEnvironment({ data: rows, heldOut: 0 });
    expect(() => assertFrontierFits(unclustered, configuration({ mode: "learnable" }))).toThrow(/--frontier.*"uniform".*declares no clusters/);
    expect(() => assertFrontierFits(unclustered, configuration({ groupSizing: { mode: "adaptive" } }))).toThrow(/frontier\.groupSizing\.mode.*"off".*declares no clusters/);
  });

  it("refuses adaptive groups where the clustered prompts have no group: a plan groupSize of 1 and no sub-episode groups", async () => {
    const singletons = await createDatasetEnvironment({ data: rows, heldOut: 0, cluster: "kind", groupSize: 1 });
    expect(() => assertFrontierFits(singletons, configuration({ groupSizing: { mode: "adaptive" } }))).toThrow(/frontier\.groupSizing\.mode.*no group to size/);
    const exactMatch = await createExactMatchEnvironment();
    expect(() => assertFrontierFits(exactMatch, configuration({ mode: "learnable", groupSizing: { mode: "adaptive" } }))).not.toThrow();
    expect(() => assertFrontierFits(createArithmeticEnvironment(), configuration({ mode: "learnable", groupSizing: { mode: "adaptive" } }))).not.toThrow();
  });
});

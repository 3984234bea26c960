import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProposerSolverEnvironment } from "../../../src/tasks/proposer-solver/proposer-solver-environment.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

describe("the proposer-solver environment (real engine, bundled base)", () => {
  it("trains with records on every step and resumes a killed run to the uninterrupted one", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-proposer-solver-"));
    // The base rarely writes a problem in this prompt's format, so most groups score alike (−1): the entropy bonus
    // keeps their records in the update (zero advantage, non-zero entropy gradient) so every step trains.
    const steps = await expectTrainsAndResumes({
      environment: () => createProposerSolverEnvironment({ prompts: 4, groupSize: 4 }),
      modelPath: bundledArithmeticBase(),
      folder,
      configuration: { steps: 2, seed: 1, sequences: 16, trainer: { loss: { entropyCoefficient: 0.01 } } },
      killAt: 2,
    });
    expect(steps.every((line) => line.rewards.proposer !== undefined)).toBe(true);
    // 4 prompts, each a group of 4: a prompt counts once.
    expect(steps[0]!.frontier.reasons).toEqual({ uniform: 4 });
  }, 240_000);

  it("trains and resumes in a chat model's forms: JSON proposals under the grammar, worded questions, the solver evaluated at the start and the end", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-proposer-solver-chat-"));
    const options = { proposal: "json", proposerMaxTokens: 40, solverPrompt: "words", solverMaxTokens: 8, extractor: "tolerant", prompts: 2, groupSize: 4, solvers: 2, evaluateProblems: 8 } as const;
    const evaluations: number[] = [];
    const steps = await expectTrainsAndResumes({
      environment: () => createProposerSolverEnvironment(options),
      modelPath: bundledArithmeticBase(),
      folder,
      configuration: { steps: 2, seed: 1, sequences: 16, evaluateEvery: 0, trainer: { loss: { entropyCoefficient: 0.01 } } },
      killAt: 2,
    });
    // The grammar makes every proposal a problem but those cut short; the step lines carry the new figures.
    for (const line of steps) expect(Object.keys(line.environment).sort()).toEqual(["distinctProblems", "solveRate", "validProposals", "validProposerReward"]);
    expect(steps.some((line) => (line.environment.validProposals ?? 0) > 0)).toBe(true);
    const metrics = (await readFile(join(folder, "uninterrupted", "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { heldOutAccuracy?: number; n?: number });
    for (const line of metrics) if (line.heldOutAccuracy !== undefined) evaluations.push(line.n ?? 0);
    expect(evaluations).toEqual([8, 8]);
    // Three runs of two steps with two evaluations: 31 s alone, past a minute beside the rest of the engine project.
  }, 240_000);
});

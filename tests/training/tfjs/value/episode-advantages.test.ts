import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors/index.js";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import type { TrainingRecord } from "../../../../src/core/schemas/training-record.js";
import { generalizedAdvantageEstimation } from "../../../../src/training/update/generalized-advantage-estimation.js";
import { episodeAdvantages } from "../../../../src/training/tfjs/value/episode-advantages.js";
import { normaliseAdvantages } from "../../../../src/training/tfjs/value/normalise-advantages.js";

const record = (rolloutId: string, roleId: string, stepIndex: number, tokens: number, reward: number): TrainingRecord => ({
  rolloutId,
  stepIndex,
  roleId,
  groupId: "g",
  promptTokenIds: [1],
  completionTokenIds: new Array<number>(tokens).fill(5),
  logprobs: new Array<number>(tokens).fill(-1),
  reward,
  advantage: 0,
  sampler: { ...DEFAULT_SAMPLER, seed: 0 },
  constrained: false,
  policyVersion: 0,
});

describe("episodeAdvantages", () => {
  it("runs GAE over a role's Steps of a rollout in stepIndex order, the reward at the last token", () => {
    // Episode "r1"/solver has steps 1 and 0 out of order; "r1"/judge and "r2"/solver are episodes of their own.
    const records = [record("r1", "solver", 1, 2, 1), record("r1", "judge", 0, 1, -1), record("r1", "solver", 0, 3, 1), record("r2", "solver", 0, 2, 0.5)];
    const values = [Float64Array.of(0.4, 0.5), Float64Array.of(0.2), Float64Array.of(0.1, 0.2, 0.3), Float64Array.of(-0.1, 0.3)];
    const { advantages, returns } = episodeAdvantages(records, values, { discount: 0.9, lambda: 0.8 });
    const solver = generalizedAdvantageEstimation([0, 0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4, 0.5], 0.9, 0.8);
    expect(Array.from(advantages[2]!)).toEqual(Array.from(solver.advantages.slice(0, 3)));
    expect(Array.from(advantages[0]!)).toEqual(Array.from(solver.advantages.slice(3)));
    expect(Array.from(returns[0]!)).toEqual(Array.from(solver.returns.slice(3)));
    // One token: A = r − V.
    expect(advantages[1]![0]).toBeCloseTo(-1.2, 12);
    const other = generalizedAdvantageEstimation([0, 0.5], [-0.1, 0.3], 0.9, 0.8);
    expect(Array.from(advantages[3]!)).toEqual(Array.from(other.advantages));
  });

  it("with γ = λ = 1 and zero values, every token's advantage is the episode's reward", () => {
    const records = [record("r", "solver", 0, 2, 0.7), record("r", "solver", 1, 3, 0.7)];
    const { advantages } = episodeAdvantages(records, [new Float64Array(2), new Float64Array(3)], { discount: 1, lambda: 1 });
    expect([...advantages[0]!, ...advantages[1]!]).toEqual([0.7, 0.7, 0.7, 0.7, 0.7]);
  });

  it("refuses two records for one step of an episode, and values that do not match the tokens", () => {
    const twice = [record("r", "solver", 0, 1, 1), record("r", "solver", 0, 1, 1)];
    expect(() => episodeAdvantages(twice, [new Float64Array(1), new Float64Array(1)], { discount: 1, lambda: 1 })).toThrow(InvalidInputError);
    expect(() => episodeAdvantages([record("r", "solver", 0, 2, 1)], [new Float64Array(3)], { discount: 1, lambda: 1 })).toThrow(InvalidInputError);
  });
});

describe("normaliseAdvantages", () => {
  it("gives mean 0 and deviation 1 over every token of the batch; all-equal advantages become 0", () => {
    const normalised = normaliseAdvantages([Float64Array.of(1, 2), Float64Array.of(3, 4, 5)]);
    const flat = normalised.flatMap((values) => Array.from(values));
    const mean = flat.reduce((sum, value) => sum + value, 0) / flat.length;
    expect(mean).toBeCloseTo(0, 12);
    expect(Math.sqrt(flat.reduce((sum, value) => sum + value ** 2, 0) / flat.length)).toBeCloseTo(1, 6);
    expect(flat[0]).toBeCloseTo(-2 / Math.sqrt(2), 6);
    expect(Array.from(normaliseAdvantages([Float64Array.of(0.5, 0.5)])[0]!)).toEqual([0, 0]);
  });
});

import { describe, expect, it } from "vitest";
import type { TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { selectTrainableRecords } from "../../../src/training/update/select-trainable-records.js";

const record = (overrides: Partial<TrainingRecord> = {}, sampler: Partial<TrainingRecord["sampler"]> = {}): TrainingRecord => ({
  rolloutId: "r",
  stepIndex: 0,
  roleId: "role",
  groupId: "g",
  promptTokenIds: [1],
  completionTokenIds: [2, 3],
  logprobs: [-1, -1],
  reward: 1,
  advantage: 1,
  sampler: { temperature: 1, topK: 0, topP: 1, minP: 0, seed: 0, maxTokens: 8, stop: [], ...sampler },
  constrained: false,
  policyVersion: 0,
  ...overrides,
});

describe("selectTrainableRecords", () => {
  it("takes a constrained record only when its masks are given", () => {
    const constrained = record({ constrained: true, constraint: { gbnf: 'root ::= "a"' } });
    expect(selectTrainableRecords([constrained]).skipped.constrained).toBe(1);
    const masks = { vocabularySize: 32, wordsPerPosition: 1, allowed: new Uint32Array(2), logitBias: { tokenIds: new Int32Array(), values: new Float32Array() } };
    expect(selectTrainableRecords([constrained], { constraintMasks: new Map([[constrained, masks]]) }).records).toEqual([constrained]);
  });

  it("leaves out top-k, top-p and min-p Steps (counted as truncated) unless the trainer reproduces the truncation", () => {
    const truncated = [record({}, { topK: 5 }), record({}, { topP: 0.9 }), record({}, { minP: 0.1 })];
    expect(selectTrainableRecords(truncated).skipped).toEqual({ constrained: 0, truncated: 3, greedy: 0, empty: 0, zeroAdvantage: 0 });
    expect(selectTrainableRecords(truncated, { reproducesTruncation: true }).records).toHaveLength(3);
  });
});

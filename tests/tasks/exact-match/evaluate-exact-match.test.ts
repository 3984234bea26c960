import { describe, expect, it } from "vitest";
import type { GenerationOutput, GenerationRequest, InferenceClient } from "../../../src/core/inference-client.js";
import { bytesToTokenIds } from "../../../src/inference/byte-tokens.js";
import { evaluateExactMatch } from "../../../src/tasks/exact-match/evaluate-exact-match.js";

/** A client that answers "0" greedily and `seed mod 4` when sampling, recording each call's batch. */
function countingClient(parallelSequences: number): InferenceClient & { batches: GenerationRequest[][] } {
  const batches: GenerationRequest[][] = [];
  return {
    batches,
    policyVersion: 0,
    capabilities: { tokenIds: true, exactLogprobs: true, grammars: false, jsonSchema: false, lora: false, parallelSequences },
    async generate(requests: readonly GenerationRequest[]): Promise<GenerationOutput[]> {
      batches.push([...requests]);
      return requests.map((request) => {
        const text = request.sampler.temperature === 0 ? "0" : String(request.sampler.seed % 4);
        const completionTokenIds = bytesToTokenIds(text);
        return { text, promptTokenIds: bytesToTokenIds("prompt"), completionTokenIds, completionLogprobs: new Float64Array(completionTokenIds.length), finishReason: "stop", constrained: false, policyVersion: 0 };
      });
    },
    async swapWeights() {},
    async dispose() {},
  };
}

const QUESTIONS = ["0", "1", "2", "3", "9"].map((answer, index) => ({ question: `q${index}=`, answer }));

describe("evaluateExactMatch", () => {
  it("scores the greedy answers, a batch of the client's parallel sequences at a time", async () => {
    const client = countingClient(4);
    expect(await evaluateExactMatch(client, QUESTIONS, { maxTokens: 3, answerFormat: "integer" })).toEqual({ heldOutAccuracy: 1 / 5, n: 5 });
    expect(client.batches.map((batch) => batch.length)).toEqual([4, 1]);
    expect(client.batches.flat().map((request) => [request.sampler.temperature, request.sampler.seed, request.sampler.maxTokens])).toEqual(Array.from({ length: 5 }, () => [0, 0, 3]));
  });

  it("pass@k: a question counts when one of its k samples at temperature 1 (seed + i·k + s) is right", async () => {
    const client = countingClient(4);
    // Sample seeds 0…9 answer 0,1 | 2,3 | 0,1 | 2,3 | 0,1: questions 0 ("0") and 3 ("3") are solved.
    const evaluation = await evaluateExactMatch(client, QUESTIONS, { maxTokens: 3, answerFormat: "integer", samples: 2 });
    expect(evaluation).toEqual({ heldOutAccuracy: 1 / 5, n: 5, passAtK: { k: 2, value: 2 / 5 } });
    expect(client.batches.map((batch) => batch.length)).toEqual([4, 1, 4, 4, 2]);
    expect(client.batches.slice(2).flat().map((request) => request.sampler.seed)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Seed 1 moves every sample by one: 1,2 | 3,0 | 1,2 solve question 2 of the first three (seed 0 solves question 0).
    const shifted = countingClient(4);
    expect((await evaluateExactMatch(shifted, QUESTIONS.slice(0, 3), { maxTokens: 3, answerFormat: "integer", samples: 2, seed: 1 })).passAtK).toEqual({ k: 2, value: 1 / 3 });
    expect(shifted.batches.slice(1).flat().map((request) => request.sampler.seed)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("an empty held-out set is 0 of 0", async () => {
    expect(await evaluateExactMatch(countingClient(4), [], { maxTokens: 3, answerFormat: "text", samples: 3 })).toEqual({ heldOutAccuracy: 0, n: 0, passAtK: { k: 3, value: 0 } });
  });
});

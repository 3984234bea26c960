import { describe, expect, it } from "vitest";
import type { GenerationOutput, GenerationRequest, InferenceClient } from "../../../../src/core/inference-client.js";
import { createDatasetEnvironment } from "../../../../src/tasks/dataset/dataset-environment.js";
import { chatTaskCandidates } from "../../../../benchmarks/chat-tasks/chat-task-candidates.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { useRealModelClient } from "../../use-real-model-client.js";

/** The client's answers, kept: the test reads what the model wrote beside what the evaluation made of it. */
function recording(client: InferenceClient, outputs: GenerationOutput[]): InferenceClient {
  return {
    capabilities: client.capabilities,
    policyVersion: client.policyVersion,
    generate: async (requests: readonly GenerationRequest[]) => {
      const answers = await client.generate(requests);
      outputs.push(...answers);
      return answers;
    },
    swapWeights: (update) => client.swapWeights(update),
    dispose: () => client.dispose(),
  } as InferenceClient;
}

// About 20 s on one thread: 8 held-out word problems after two worked examples, greedy, on SmolLM2's own template.
describe(`the dataset environment's chat options on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 8, contextSize: 512 });

  it.skipIf(!realModelAvailable)("worked examples reach the template as turns, and the model answers in their form; the figures are the answers'", async () => {
    const candidate = chatTaskCandidates().find((entry) => entry.name === "word-problems");
    if (candidate === undefined) throw new Error("no word-problems candidate");
    const options = { data: candidate.rows, prompt: "question", heldOut: { column: "split", value: "test" }, extractor: "tolerant", format: { extractor: "answer-line" }, maxTokens: 48, evaluateItems: 8 } as const;
    const withExamples = await createDatasetEnvironment({ ...options, fewShot: candidate.fewShot });
    const outputs: GenerationOutput[] = [];
    const evaluation = await withExamples.evaluate?.(recording(client(), outputs));
    expect(outputs).toHaveLength(8);
    // The two examples are ~100 tokens of the prompt in SmolLM2's template.
    const bare = await createDatasetEnvironment(options);
    const bareOutputs: GenerationOutput[] = [];
    await bare.evaluate?.(recording(client(), bareOutputs));
    for (const [index, output] of outputs.entries()) expect(output.promptTokenIds.length - (bareOutputs[index] as GenerationOutput).promptTokenIds.length).toBeGreaterThan(60);
    // Copied form: an `Answer:` line in most answers with the examples, in few without them.
    const answerLines = (answers: GenerationOutput[]) => answers.filter((output) => /Answer:/.test(output.text)).length;
    expect(answerLines(outputs)).toBeGreaterThanOrEqual(6);
    expect(answerLines(outputs)).toBeGreaterThan(answerLines(bareOutputs));
    // The figures are the recorded answers' own.
    const truncated = outputs.filter((output) => output.finishReason === "length").length / 8;
    const lengths = outputs.map((output) => output.completionTokenIds.length).sort((a, b) => a - b);
    expect(evaluation?.figures).toMatchObject({ truncated, medianCompletionTokens: ((lengths[3] as number) + (lengths[4] as number)) / 2 });
    expect(evaluation?.figures?.["strictAccuracy"]).toBeLessThanOrEqual(evaluation?.heldOutAccuracy as number);
  });
});

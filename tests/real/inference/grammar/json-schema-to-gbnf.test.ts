import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Arena } from "../../../../src/arena/arena.js";
import { ArtifactStore } from "../../../../src/arena/artifact-store.js";
import { RoleSchema } from "../../../../src/core/schemas/role.js";
import { StructuredEpisode } from "../../../helpers/structured-episode.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { useRealModelClient } from "../../use-real-model-client.js";

/** Two members, an enum and a small integer: every sentence of its grammar fits the budget in SmolLM2's tokens. */
const ReviewSchema = z.strictObject({ verdict: z.enum(["yes", "no"]), score: z.number().int().min(0).max(9) });
const SAMPLES = 100;

/** A system message of its own: the template's default system line would be most of each prompt. */
class TerseStructuredEpisode extends StructuredEpisode<typeof ReviewSchema> {
  override readonly roles = [RoleSchema.parse({ id: "writer", systemPrompt: "JSON." })];
}
/** The longest of the 100 samples measured 15 tokens, the end of turn included. */
const MAX_TOKENS = 24;

describe(`strict JSON under a grammar on SmolLM2's vocabulary${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 25, contextSize: 80 });

  it.skipIf(!realModelAvailable)(`${SAMPLES} samples at temperature 1, each seeded apart, batched: all valid JSON of the schema, each Step's logprobs finite`, async () => {
    const arena = new Arena({ client: client(), seed: 21, concurrency: SAMPLES, samplerDefaults: { temperature: 1, maxTokens: MAX_TOKENS } }).register(
      // One attempt: an invalid sample is a failure, never resampled away.
      new TerseStructuredEpisode({ schema: ReviewSchema, maxAttempts: 1 }),
      // Shown an example, the model spends few tokens on the grammar's optional spaces: the samples stay short.
      ArtifactStore.of([{ topic: 'a rename, e.g. {"verdict":"yes","score":7}' }]),
    );
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "structured", count: 1, groupSize: SAMPLES }]));
    const steps = results.flatMap((result) => result.rollout.steps);
    expect(steps).toHaveLength(SAMPLES);
    expect(new Set(steps.map((step) => step.sampler.seed)).size).toBe(SAMPLES);
    for (const step of steps) {
      expect(step.constrained).toBe(true);
      expect(step.finishReason).toBe("stop");
      expect(step.structured).toEqual({ attempt: 0, valid: true });
      expect(ReviewSchema.safeParse(JSON.parse(step.completion[0]!.content)).success).toBe(true);
      expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
      for (const logprob of step.completionLogprobs) expect(Number.isFinite(logprob)).toBe(true);
    }
    for (const result of results) expect(result.structuredOutputs.role).toMatchObject({ calls: 1, firstTryValid: 1, failures: 0 });
    // Drawn at temperature 1 within the grammar: the samples differ.
    expect(new Set(steps.map((step) => step.completion[0]!.content)).size).toBeGreaterThan(1);
  });
});

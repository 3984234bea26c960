import { toErrorRecord } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import { challengeId, type Challenge } from "../challenges/challenge.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";
import { clientLessonJudge } from "../lessons/client-lesson-judge.js";
import { challengeGenerationPrompt, type ChallengeGenerationInput } from "./challenge-generation-prompt.js";
import { GeneratedChallengeSchema } from "./generated-challenge.js";

/** Options of `generateChallenge`. */
export interface GenerateChallengeOptions extends ChallengeGenerationInput {
  client: InferenceClient;
  /** Seeds of the generator's samples. */
  random: RandomStream;
  tier: ChallengeTier;
  /** Samples until one is valid JSON of the schema. Default 2. */
  maxSamples?: number;
  /** Tokens per sample. Default 1024. */
  maxTokens?: number;
}

/** A generated challenge, or why the model's answer was not one. */
export type GenerateChallengeResult = { ok: true; challenge: Challenge } | { ok: false; problem: string };

/**
 * One model-written challenge through strict JSON (validated and resampled;
 * schema-constrained when the client can). Junk — which a tiny base model
 * writes — is a result, not an error: the cycle regenerates or falls back.
 */
export async function generateChallenge(options: GenerateChallengeOptions): Promise<GenerateChallengeResult> {
  // A strict-JSON call on a bare client: the same contract the lesson judge has (never a Step).
  const writer = clientLessonJudge(options.client, options.random);
  try {
    const { value } = await writer.judgeObject(challengeGenerationPrompt(options), GeneratedChallengeSchema, {
      maxAttempts: options.maxSamples ?? 2,
      sampler: { maxTokens: options.maxTokens ?? 1024 },
    });
    const content = { cluster: value.cluster, tier: options.tier, prompt: value.prompt, setup: value.setup, validator: value.validator, outputFile: value.outputFile, source: "generated" as const };
    return { ok: true, challenge: { id: challengeId(content), ...content } };
  } catch (error) {
    const record = toErrorRecord(error);
    return { ok: false, problem: `${record.name}: ${record.message}`.slice(0, 400) };
  }
}

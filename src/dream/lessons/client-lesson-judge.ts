import type { InferenceClient } from "../../core/inference-client.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { jsonSchemaConstraint } from "../../core/structured/json-schema-constraint.js";
import { sampleStructured } from "../../core/structured/sample-structured.js";
import { emptyStructuredOutputStats, type StructuredOutputStats } from "../../core/structured/structured-output-stats.js";
import type { LessonJudge } from "./extract-lesson.js";

export interface ClientLessonJudgeOptions {
  /** Counters the judge's structured calls add to (default: a private set). */
  stats?: StructuredOutputStats;
}

/**
 * A LessonJudge over a bare InferenceClient, for a cycle runner that asks
 * for lessons outside an episode: the same contract as an episode's
 * judgeObject (greedy and 64 tokens unless told, constrained to the schema
 * when the client can, validated, resampled), each sample's seed drawn from
 * `random`. Its calls are never Steps: nothing here reaches a TrainingBatch.
 */
export function clientLessonJudge(client: InferenceClient, random: RandomStream, options: ClientLessonJudgeOptions = {}): LessonJudge {
  const stats = options.stats ?? emptyStructuredOutputStats();
  return {
    judgeObject: async (messages, schema, callOptions = {}) => {
      const constraint = client.capabilities.jsonSchema ? jsonSchemaConstraint(schema, callOptions.logitBias) : null;
      const { value, sample, attempts } = await sampleStructured({
        schema,
        maxAttempts: callOptions.maxAttempts ?? 4,
        sample: async () => {
          const sampler = { ...DEFAULT_SAMPLER, temperature: 0, maxTokens: 64, ...callOptions.sampler, seed: random.uint32() };
          const [output] = await client.generate([{ messages, sampler, constraint }]);
          return { text: output?.text ?? "" };
        },
        ...(callOptions.parse && { parse: callOptions.parse }),
        stats,
      });
      return { value, text: sample.text, attempts };
    },
  };
}

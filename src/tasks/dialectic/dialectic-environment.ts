import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { LogitBiasSchema } from "../../core/schemas/constraint.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { DialecticSettingsSchema } from "../../dialectic/dialectic-settings.js";
import type { Environment } from "../../environments/environment.js";
import { dialecticEpisodeModule } from "./dialectic-episodes.js";

/** Tasks the proposer writes for when the options name none: short, so a critique can judge them. */
export const DIALECTIC_TASKS: readonly string[] = [
  "Name a prime number greater than 10 and say why it is prime.",
  "Define recursion in one sentence.",
  "Give one rule for naming variables, with an example.",
  "Explain in one sentence why the sky is blue.",
  "Suggest a title for a blog post about unit tests.",
  "Write a two-line poem about autumn.",
];

/** The options of the `dialectic` environment. */
export const DialecticEnvironmentOptionsSchema = z.strictObject({
  /** What the proposer is asked to write. Default: six short tasks (`DIALECTIC_TASKS`). */
  tasks: z.array(z.string().min(1)).min(1).default([...DIALECTIC_TASKS]),
  /** Tasks per step. Default 2. */
  prompts: z.number().int().min(1).default(2),
  /** Loops per task: the GRPO group, whose rewards differ with the proposals. Default 4. */
  groupSize: z.number().int().min(2).default(4),
  /** The loop's settings (rounds, thresholds, temperatures); any field left out has the loop's default. Default `{"maxRounds": 2}`. */
  loop: DialecticSettingsSchema.prefault({ maxRounds: 2 }),
  /** Tokens per proposal. Default 128. */
  proposerMaxTokens: z.number().int().min(1).default(128),
  /** Weight of the score's rise over the first round in the proposer's reward (final score + weight × rise). Default 0.5. */
  improvementWeight: z.number().min(0).default(0.5),
  /** Tokens per critique (a critique at the schema's bounds is about 900 bytes). Default 1024. */
  criticMaxTokens: z.number().int().min(1).default(1024),
  /** Steers the constrained critic, e.g. `{"\"": 4}` closes its strings early on a small model. Default none. */
  criticLogitBias: LogitBiasSchema.optional(),
});
export type DialecticEnvironmentOptions = z.input<typeof DialecticEnvironmentOptionsSchema>;

const DIALECTIC = "dialectic";

/**
 * The dialectic loop as a training task: the proposer is the trainable Role
 * (every proposal a Step); the critic is a judge — the policy itself or
 * `--judge-model` — answering through strict JSON, never a Step. The reward is
 * the final critic score plus `improvementWeight` × its rise over the first
 * round; each task is looped `groupSize` times so GRPO compares the loops.
 */
export function createDialecticEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(DialecticEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  return {
    name: "dialectic",
    episodes: dialecticEpisodeModule({
      loop: parsed.loop,
      proposerMaxTokens: parsed.proposerMaxTokens,
      improvementWeight: parsed.improvementWeight,
      criticMaxTokens: parsed.criticMaxTokens,
      ...(parsed.criticLogitBias && { criticLogitBias: parsed.criticLogitBias }),
    }),
    stores: { [DIALECTIC]: ArtifactStore.of(parsed.tasks.map((task) => ({ task }))) },
    plan: [{ episodeType: DIALECTIC, count: parsed.prompts, groupSize: parsed.groupSize }],
    summarise: dialecticStepSummary,
  };
}

/** The critic's scores over a step's finished loops. */
function dialecticStepSummary(results: readonly GenerateResult[]): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored").map((result) => result.scoreDetails);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
  const numbers = (field: string) => scored.map((details) => details[field]).filter((value): value is number => typeof value === "number");
  return {
    /** Mean critic score of the loops' final proposals. */
    finalScore: mean(numbers("finalScore")),
    /** Mean rise of the score from the first round to the end. */
    improvement: mean(numbers("improvement")),
    /** Mean rounds a loop ran. */
    rounds: mean(numbers("rounds")),
    /** Share of loops the critic approved (converged). */
    converged: scored.filter((details) => details.state === "converged").length / Math.max(scored.length, 1),
  };
}

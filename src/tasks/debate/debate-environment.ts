import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import { JudgeLabelsSchema, JudgeOrdersSchema } from "../../core/verifiers/zero-sum-judge-verifier.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { DEBATE_TOPICS } from "./debate-episode.js";
import { debateEpisodeModule } from "./debate-episodes.js";
import type { Environment } from "../../environments/environment.js";
import { scriptedDebateRules } from "./scripted-debate.js";

/** The options of the `debate` environment. */
export const DebateEnvironmentOptionsSchema = z.strictObject({
  /** The motions debated. Default: the eight of `selfplay run debate`. */
  motions: z.array(z.string().min(1)).min(1).default([...DEBATE_TOPICS]),
  /** Motions per step. Default 4. */
  prompts: z.number().int().min(1).default(4),
  /** Debates per motion: the GRPO group, whose verdicts differ. Default 4. */
  groupSize: z.number().int().min(2).default(4),
  /** Rounds of one affirmative and one negative turn each. Default 1. */
  rounds: z.number().int().min(1).default(1),
  /** Tokens per debater turn. Default 64. */
  maxTokens: z.number().int().min(1).default(64),
  /** Verdicts that may fail to validate before a debate counts as failed (only a judge without JSON-schema support can fail). Default 3. */
  judgeAttempts: z.number().int().min(1).default(3),
  /**
   * The judge's temperature. Default 1: the verdict is drawn from the judge's
   * own odds of the two ids (seeded per debate), so its expected reward is the
   * judge's preference and a judge that leans one way still gives a group
   * differing verdicts. 0: the greedy verdict (a random or biased judge then
   * names the same side every time, and no advantage is non-zero).
   */
  judgeTemperature: z.number().min(0).default(1),
  /**
   * `"both"` (default): each verdict is asked twice, the sides presented in
   * one order and then the other (named and their turns shown `neg` first); a
   * verdict that flips is a tie, 0 to each side, and counted in the step's
   * `judging.positionConsistency`. Twice the judge calls. `"one"`: asked once,
   * `aff` first, as before.
   */
  judgeOrders: JudgeOrdersSchema.default("both"),
  /**
   * `"positions"` (default): the judge calls the side shown first `A` and the
   * other `B` in each ask, so a judge that always names one label names
   * `aff` in one order and `neg` in the other, a tie. `"roles"`: it calls
   * them `aff` and `neg`, and a judge that always names one id pays that side
   * every debate, surviving the swap.
   */
  judgeLabels: JudgeLabelsSchema.default("positions"),
  /**
   * With a separate judge model (`--judge-model`), also ask the policy for
   * each verdict and report how often it agrees with the judge
   * (`judging.judgeAgreement`, a self-preference figure); it never changes a
   * reward. As many policy calls again as the judge's. Default true.
   */
  policyAsJudge: z.boolean().default(true),
  /**
   * Binds `neg` to a frozen policy, so the learner (`aff`) debates a fixed
   * opponent: `"base"` (the run's base model) or the path of a GGUF model or
   * LoRA adapter (a checkpoint). Default: none, one policy plays both sides.
   */
  opponent: z.string().min(1).optional(),
});
export type DebateEnvironmentOptions = z.input<typeof DebateEnvironmentOptionsSchema>;

const DEBATE = "debate";

/**
 * Two-sided debate on a motion, `aff` for it and `neg` against, one policy in
 * both roles (or `neg` frozen, with `opponent`). The judge — the policy itself,
 * or `--judge-model` — names the winner through strict JSON, an enum of the
 * two position labels (`A` shown first, `B` second), so every verdict is valid
 * and the rewards are ±1, zero-sum; asked with the sides in both orders, a
 * verdict that flips is a tie (0 each).
 * Each motion is debated `groupSize` times: GRPO compares each side's debates
 * of one motion, and the verdicts that differ give non-zero advantages.
 */
export function createDebateEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(DebateEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  return {
    name: "debate",
    episodes: debateEpisodeModule({ rounds: parsed.rounds, maxTokens: parsed.maxTokens, judgeAttempts: parsed.judgeAttempts, judgeTemperature: parsed.judgeTemperature, judgeOrders: parsed.judgeOrders, judgeLabels: parsed.judgeLabels, policyAsJudge: parsed.policyAsJudge }),
    stores: { [DEBATE]: ArtifactStore.of(parsed.motions.map((topic) => ({ topic }))) },
    plan: [{ episodeType: DEBATE, count: parsed.prompts, groupSize: parsed.groupSize }],
    ...(parsed.opponent !== undefined && { frozenRoles: { neg: parsed.opponent } }),
    scriptedPlayers: scriptedDebateRules,
    summarise: debateStepSummary,
  };
}

/** The share of a step's judged debates each side won; ties (verdicts that flipped with the order) are the loop's `judging` figure. */
function debateStepSummary(results: readonly GenerateResult[]): Record<string, number> {
  const verdicts = results.filter((result) => result.outcome.status === "scored").map((result) => result.scoreDetails.verdict);
  const affirmativeWins = verdicts.filter((verdict) => verdict === "aff").length;
  return {
    /** Share of judged debates `aff` won (`neg` won the rest but the ties). */
    affirmativeWinRate: affirmativeWins / Math.max(verdicts.length, 1),
    judgedDebates: verdicts.length,
  };
}

import type { FailureStage } from "../../core/schemas/generate-result.js";
import type { OpponentResult } from "./opponent-results.js";
import type { JudgingFigures } from "../../core/verifiers/judging-figures.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import type { FirstRolloutFailure } from "./rollout-failures.js";

/** One line of metrics.jsonl per step, the same for every environment. */
export interface TrainingStepMetrics extends UpdateMetrics {
  /** The step, from 1; its policy version is the step before it. */
  step: number;
  /** Mean reward of each role over the step's scored rollouts, sub-episodes included. */
  rewards: Record<string, number>;
  /**
   * Rollouts scored, failed (an episode or verifier threw: `failures`) and dropped by their environment on purpose
   * (a `DroppedRolloutError`, such as arithmetic's held-out problems: `drops`), sub-episodes included. Neither failed nor
   * dropped ones are trained on; only failed ones count toward `maxFailedFraction`.
   */
  rollouts: { scored: number; failed: number; dropped: number };
  /**
   * The step's credit groups (two or more scored members of one group id acting as one trained role; sub-episodes
   * included) and its draws of the plan: `drawn` groups, of them `informative` (rewards that differ) and `kept` in
   * the update, `dropped` = drawn − kept (all-equal groups, and informative ones beyond `target`, only with
   * `dynamicSampling.enabled`); `target` is `dynamicSampling.targetGroups` or the first draw's group count, `draws`
   * the plan draws made (1 without dynamic sampling), `reachedTarget` whether informative ≥ target.
   */
  groups: { drawn: number; informative: number; kept: number; dropped: number; target: number; draws: number; reachedTarget: boolean };
  /** Failed rollouts by stage and error name (`{score: {TypeError: 40}}`); empty when none failed. */
  failures: Partial<Record<FailureStage, Record<string, number>>>;
  /** The step's first failed rollout: its id (in rollouts.jsonl), episode type, stage and error; absent when none failed. */
  firstFailure?: FirstRolloutFailure;
  /** Dropped rollouts by their reason's name (`{HeldOutProblemError: 2}`); empty when none was dropped. Never in `failures`. */
  drops: Record<string, number>;
  /** Completion tokens sampled per second of rollout. */
  rolloutTokensPerSecond: number;
  /** Seconds the step's rollouts took (scoring included). */
  rolloutSeconds: number;
  /** Seconds of the policy update. */
  updateSeconds: number;
  /** Seconds to serve the new weights to the engine (and any per-worker engine). */
  syncSeconds: number;
  /** Wall-clock seconds since the run started, time before a resume included and time while killed not. */
  elapsedSeconds: number;
  /**
   * How the step's clustered prompts were chosen (counts by rule and by
   * cluster, each rule's first message; empty without clusters) and, with
   * adaptive group sizing, each drawn cluster's mean attempts per prompt.
   */
  frontier: { reasons: Record<string, number>; targets: Record<string, number>; messages: string[]; groupSizes?: Record<string, number> };
  /** The step's judges: the share of verdicts that survived a swap of the sides' order (positionConsistency) and, with --judge-model, the policy's agreement with the judge (judgeAgreement); absent when no verifier reports them. */
  judging?: JudgingFigures;
  /**
   * With frozen roles (`opponents` frozen or league): the trained seats' games, mean reward and win share
   * (reward above 0) by the version that played the opponent (`v<N>`); absent when the policy plays every seat.
   */
  opponents?: Record<string, OpponentResult>;
  /** The environment's own summary of the step (`Environment.summarise`). */
  environment: Record<string, number>;
}

import type { BatchPlanEntry } from "../arena/arena.js";
import type { ArtifactStore } from "../arena/artifact-store.js";
import type { EpisodeModule } from "../arena/pool/episode-module.js";
import type { InferenceClient } from "../core/inference-client.js";
import type { JsonObject, JsonValue } from "../core/json.js";
import type { GenerateResult } from "../core/schemas/generate-result.js";
import type { ScriptedRule } from "../inference/scripted-inference-client.js";

/**
 * What a task hands the training loop: its episodes, its data, the plan of
 * one step, and optionally clusters, a held-out evaluation and a summary of
 * its own metrics. Declarative: the loop runs any environment alike and never
 * names a task's concepts; a task's vocabulary stays in its folder.
 */
export interface Environment {
  /** Short name, recorded in the run's checkpoints (`arithmetic`, `debate`, or the module's). */
  readonly name: string;
  /**
   * The episodes, as an episode module (`(options) => Episode[]`): the main
   * thread registers them and RolloutPool workers import the same module.
   */
  readonly episodes: EpisodeModule;
  /** The artifact store of each episode type the plan draws from (sub-episode types need none). */
  readonly stores: Readonly<Record<string, ArtifactStore>>;
  /** One training step: which episode types, how many prompts, how many samples per prompt (the GRPO group). */
  readonly plan: readonly BatchPlanEntry[];
  /**
   * Roles served by a frozen policy instead of the learner (a frozen
   * opponent), by role id: `"base"` (the run's base model, as it was) or the
   * path of a GGUF model or of a LoRA adapter over the base (a checkpoint's
   * `final.gguf`, `final.lora.gguf`). Their Steps are recorded in the
   * rollouts but never become TrainingRecords. Runs in-process (no pool).
   */
  readonly frozenRoles?: Readonly<Record<string, string>>;
  /**
   * Tokens of context the engine opens for this environment's rollouts, when
   * its prompts and answers need more than the model's default (the smaller
   * of its trained context and 2,048). Default: that default.
   */
  readonly contextSize?: number;
  /** Sampler settings of every call unless a Role or call overrides them (temperature, maxTokens …). */
  readonly samplerDefaults?: { temperature?: number; maxTokens?: number };
  /** Clusters of the artifacts, which the PRM-weighted frontier chooses among (`--frontier prm`). */
  readonly clusters?: EnvironmentClusters;
  /**
   * The episode types whose rollouts `selfplay prm label` makes PRM
   * trajectories of (their trainable roles' Steps). Default: every episode
   * type. Name them when some type's reward says nothing its own Steps'
   * prefixes could predict (arithmetic's proposer is paid by its solvers'
   * pass rate: only the solvers are labelled).
   */
  readonly labelledEpisodeTypes?: readonly string[];
  /**
   * A held-out evaluation on the engine at the current weights (every
   * `evaluateEvery` steps and at the end, and `selfplay eval --env`). With
   * `samples` (only where `evaluatesPassAtK` is declared), pass@k besides;
   * with `opponents` (only where `evaluatesOpponents` is declared), the
   * policy's record against each.
   */
  evaluate?(client: InferenceClient, options?: EnvironmentEvaluateOptions): Promise<EnvironmentEvaluation>;
  /**
   * Whether `evaluate` takes `samples` and reports `passAtK` (`selfplay eval
   * --samples K`); an evaluation that is not a share of problems solved (a
   * band share, clean episodes) leaves it out. Default false.
   */
  readonly evaluatesPassAtK?: boolean;
  /**
   * Whether `evaluate` plays the policy against the model `opponents` it is
   * given and reports its record against each in `figures` (a game's;
   * `selfplay eval --against FILE`, and a league run's snapshots at every
   * evaluation). Default false: `opponents` are never passed.
   */
  readonly evaluatesOpponents?: boolean;
  /**
   * A term of the rewards that no single rollout can compute, over one
   * training draw's results (R-Zero's penalty on a proposal that others in the
   * batch repeat): it returns the results with their rewards changed, and
   * runs before the draw's groups are judged informative and before credit
   * assignment, so the update, the logged rollouts and the frontier see the
   * same rewards. It must depend on the draw alone (no state across steps), so
   * a resumed run scores what the uninterrupted one scored.
   */
  adjustStepRewards?(results: readonly GenerateResult[]): GenerateResult[];
  /** The task's own numbers for a step's results (solve rate, valid proposals …), logged under `environment`. */
  summarise?(results: readonly GenerateResult[]): Record<string, number>;
  /** The task's own figures for a whole run, from its metrics.jsonl lines: added to report.json (the arithmetic proposer's distance from its target pass rate). */
  summariseRun?(metricLines: readonly Record<string, unknown>[]): Record<string, unknown>;
  /**
   * The task's own defaults of any part of the training configuration (the
   * update it was tuned with, its step count …): the loop fills them in under
   * what a config file or a flag sets, which always wins.
   */
  readonly trainingDefaults?: JsonObject;
  /** Deterministic players of its episodes for dry runs (`selfplay run ENV --client scripted`, tests): rules of a ScriptedInferenceClient. */
  readonly scriptedPlayers?: readonly ScriptedRule[];
}

/** What `evaluate` is asked for besides its greedy figure. */
export interface EnvironmentEvaluateOptions {
  /** Samples per problem at temperature 1 for pass@k, an integer from 1; absent or 0: greedy only. */
  samples?: number;
  /** Seed of the samples (an integer from 0 to 4294967295). Default 0. */
  seed?: number;
  /**
   * Policies to play the evaluated one against, each its own client (only
   * where `evaluatesOpponents` is declared): a league's snapshots, a file
   * given on the command line. Absent or empty: the evaluation's own
   * opponents only.
   */
  opponents?: readonly EvaluationOpponent[];
}

/** A policy the evaluation plays against: a model, so its moves are its client's. */
export interface EvaluationOpponent {
  /** Its name in the figures (`v3`, `base`, `final`): letters, digits, `-` and `_`, unique among the opponents (assertEvaluationOpponentNames). */
  name: string;
  client: InferenceClient;
}

/** A held-out evaluation: the share of problems solved (greedy) and how many there were. */
export interface EnvironmentEvaluation {
  /** The share of held-out problems solved (greedy), from 0 to 1: the same name in metrics.jsonl, report.json and `selfplay eval --json`. */
  heldOutAccuracy: number;
  n: number;
  /** The share of problems some of `k` samples solved, when `samples` was asked for. */
  passAtK?: { k: number; value: number };
  /** The environment's own figures of the same evaluation, by name (the dataset's `strictAccuracy`, `truncated` …): in metrics.jsonl's evaluation lines and `selfplay eval`. */
  figures?: Record<string, number>;
}

/** How a task's artifacts fall into clusters, and what a step's results tell about each. */
export interface EnvironmentClusters {
  /** The episode type whose requests the frontier draws, one plan entry. */
  readonly episodeType: string;
  /** Every cluster, in a fixed order. */
  readonly names: readonly string[];
  /** The cluster of an artifact of `episodeType`. */
  of(artifact: JsonValue): string;
  /**
   * Per cluster, what a step's results showed: the tracker's first-attempt and
   * success rates, the trajectories added (the PRM's rarity signal) and the
   * latest task as text (the state the PRM scores for the cluster). Default
   * (`clusterOutcomesByReward`): each scored rollout of `episodeType` is one
   * attempt at its artifact, solved when its mean reward is positive.
   */
  outcomes?(results: readonly GenerateResult[]): ClusterStepOutcome[];
  /**
   * Each cluster's share of the task's data, relative (its problem or row
   * count): the learnable frontier weighs clusters by it and draws its floor
   * by it, so its picks follow the data (which a held-out split is drawn from)
   * rather than the list of names. Default: the count of the `episodeType`
   * store's artifacts in each cluster.
   */
  readonly shares?: Readonly<Record<string, number>>;
  /** A task to score a cluster by before it has been played (default: the cluster's name). */
  firstTask?(cluster: string): string;
  /**
   * Where each artifact's episode runs its own GRPO group as sub-episodes (a
   * proposer's solvers) rather than the plan repeating it (`groupSize`): the
   * group's configured size, and the artifact whose episode runs `size`
   * instead — how adaptive group sizing (`frontier.groupSizing`) reaches it.
   * Absent: the plan's groups are the ones sized.
   */
  readonly subEpisodeGroups?: {
    readonly size: number;
    withSize(artifact: JsonValue, size: number): JsonValue;
  };
}

/** What one step's results showed about a cluster. */
export interface ClusterStepOutcome {
  cluster: string;
  /** Mean share of an artifact's attempts that succeeded. */
  firstAttemptRate: number;
  /** Share of artifacts some attempt solved. */
  successRate: number;
  trajectories: number;
  latestTask: string;
}

/** What an environment module exports: a factory of the environment from its JSON options. */
export type EnvironmentFactory = (options: JsonValue | undefined) => Environment | Promise<Environment>;

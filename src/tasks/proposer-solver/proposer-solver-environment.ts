import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { ARITHMETIC_TOPICS } from "./proposer-episode.js";
import { proposerSolverEpisodeModule, ProposerSolverEpisodesOptionsSchema } from "./proposer-solver-episodes.js";
import type { Environment } from "../../environments/environment.js";
import { evaluateSolver } from "./evaluate-solver.js";
import { scriptedProposerSolverRules } from "./scripted-proposer-solver.js";
import { SolverEpisode } from "./solver-episode.js";

/**
 * The options of the `proposer-solver` environment: how many proposals a step,
 * the episodes' forms (the bundled base's by default; `proposal: "json"`,
 * `solverPrompt: "words"`, `extractor: "tolerant"` and token budgets for a chat
 * model), the solver's held-out evaluation and the engine's context.
 */
export const ProposerSolverEnvironmentOptionsSchema = z.strictObject({
  /** Topics drawn per step. Default 8. */
  prompts: z.number().int().min(1).default(8),
  /** Proposals per topic: the proposer's GRPO group. Default 4. */
  groupSize: z.number().int().min(1).default(4),
  // The episodes' forms; what is dropped follows from the evaluation.
  ...ProposerSolverEpisodesOptionsSchema.omit({ dropHeldOut: true }).shape,
  /**
   * Held-out problems the solver is asked at each evaluation (greedy, in the
   * rollouts' prompt and extractor): the arithmetic task's held-out split,
   * whose problems are then dropped when proposed, so no solver trains on one.
   * Default 0: no evaluation, and nothing dropped.
   */
  evaluateProblems: z.number().int().min(0).default(0),
  /**
   * Positions a sequence of the engine holds (prompt and completion). Default:
   * the model file's context, capped by memory (8,192 for SmolLM2, whose
   * prompts here are under 100 tokens).
   */
  contextSize: z.number().int().min(1).optional(),
});
export type ProposerSolverEnvironmentOptions = z.input<typeof ProposerSolverEnvironmentOptionsSchema>;

/**
 * `selfplay run proposer-solver` as a training environment: for a topic
 * ("two-digit subtraction"), the proposer writes a problem — plain `a±b`, or
 * with `proposal: "json"` an expression in JSON under a grammar that the
 * executor evaluates — and `solvers` sub-episodes answer it; the proposer is
 * paid by a Gaussian around a 50% pass rate (−1 for a reply that is no
 * problem), the solvers by their answer's match. Several proposals per topic
 * form the proposer's group; the topics are the clusters. With
 * `evaluateProblems`, the solver's held-out accuracy on the arithmetic
 * task's held-out problems.
 */
export function createProposerSolverEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(ProposerSolverEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const { prompts, groupSize, evaluateProblems, contextSize, ...episodes } = parsed;
  const evaluates = evaluateProblems > 0;
  // The rollouts' solver, for the evaluation to ask and read as its Steps are asked and read.
  const solver = new SolverEpisode({ prompt: episodes.solverPrompt, system: episodes.solverSystem, maxTokens: episodes.solverMaxTokens, extractor: episodes.extractor });
  return {
    name: "proposer-solver",
    ...(contextSize !== undefined && { contextSize }),
    episodes: proposerSolverEpisodeModule({ ...episodes, ...(evaluates && { dropHeldOut: true }) }),
    stores: { propose: ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))) },
    plan: [{ episodeType: "propose", count: prompts, groupSize }],
    clusters: {
      episodeType: "propose",
      names: ARITHMETIC_TOPICS,
      of: (artifact) => String((artifact as { topic?: unknown } | null)?.topic),
      firstTask: (topic) => `Write one ${topic} problem.`,
    },
    ...(evaluates && {
      evaluate: (client, evaluateOptions) => evaluateSolver(client, solver, evaluateProblems, evaluateOptions),
      evaluatesPassAtK: true,
    }),
    scriptedPlayers: scriptedProposerSolverRules,
    summarise: proposerSolverSummary,
  };
}

/**
 * A step's proposals: the share that were problems, the solvers' solve rate on
 * them, the distinct problems among them, and the proposer's mean reward over
 * the valid ones (the Gaussian of their pass rates, without the invalid −1s).
 */
function proposerSolverSummary(results: readonly GenerateResult[]): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored");
  const valid = scored.filter((result) => result.rollout.artifacts.valid === true);
  const attempts = valid.flatMap((result) => result.children.filter((child) => child.outcome.status === "scored"));
  const solved = attempts.filter((child) => (child.rewards.solver ?? 0) > 0).length;
  return {
    validProposals: valid.length / Math.max(results.length, 1),
    solveRate: solved / Math.max(attempts.length, 1),
    distinctProblems: new Set(valid.map((result) => result.rollout.artifacts.problem)).size,
    validProposerReward: valid.reduce((sum, result) => sum + (result.rewards.proposer ?? 0), 0) / Math.max(valid.length, 1),
  };
}

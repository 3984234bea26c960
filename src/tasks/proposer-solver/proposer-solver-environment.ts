import { z } from "zod";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { ARITHMETIC_TOPICS } from "./proposer-episode.js";
import { proposerSolverEpisodeModule } from "./proposer-solver-episodes.js";
import type { Environment } from "../../environments/environment.js";
import { scriptedProposerSolverRules } from "./scripted-proposer-solver.js";

/** The options of the `proposer-solver` environment. */
export const ProposerSolverEnvironmentOptionsSchema = z.strictObject({
  /** Topics drawn per step. Default 8. */
  prompts: z.number().int().min(1).default(8),
  /** Proposals per topic: the proposer's GRPO group. Default 4. */
  groupSize: z.number().int().min(1).default(4),
});
export type ProposerSolverEnvironmentOptions = z.input<typeof ProposerSolverEnvironmentOptionsSchema>;

/**
 * `selfplay run proposer-solver` as a training environment: for a topic
 * ("two-digit subtraction"), the proposer writes a problem in plain text and
 * 4 solver sub-episodes answer it; the proposer is paid by a Gaussian around
 * a 50% pass rate (−1 for a reply that is no problem), the solvers by exact
 * match. Several proposals per topic form the proposer's group; the topics
 * are the clusters.
 */
export function createProposerSolverEnvironment(options?: JsonValue): Environment {
  const { prompts, groupSize } = parseInput(ProposerSolverEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  return {
    name: "proposer-solver",
    episodes: proposerSolverEpisodeModule(),
    stores: { propose: ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))) },
    plan: [{ episodeType: "propose", count: prompts, groupSize }],
    clusters: {
      episodeType: "propose",
      names: ARITHMETIC_TOPICS,
      of: (artifact) => String((artifact as { topic?: unknown } | null)?.topic),
      firstTask: (topic) => `Write one ${topic} problem.`,
    },
    scriptedPlayers: scriptedProposerSolverRules,
    summarise: proposerSolverSummary,
  };
}

/** The share of valid problems and the solvers' solve rate on them. */
function proposerSolverSummary(results: readonly GenerateResult[]): Record<string, number> {
  const scored = results.filter((result) => result.outcome.status === "scored");
  const valid = scored.filter((result) => result.rollout.artifacts.valid === true);
  const attempts = valid.flatMap((result) => result.children.filter((child) => child.outcome.status === "scored"));
  const solved = attempts.filter((child) => (child.rewards.solver ?? 0) > 0).length;
  return { validProposals: valid.length / Math.max(results.length, 1), solveRate: solved / Math.max(attempts.length, 1) };
}

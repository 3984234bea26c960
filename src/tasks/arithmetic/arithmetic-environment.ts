import { z } from "zod";
import { summariseProposerTargetGap } from "./proposer-target-gap.js";
import { ArtifactStore } from "../../arena/artifact-store.js";
import type { JsonValue } from "../../core/json.js";
import { parseInput } from "../../core/parse-input.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { taskText } from "../../frontier/labelling/task-text.js";
import { solverMessages } from "./arithmetic-prompts.js";
import { arithmeticSelfPlayEpisodeModule } from "./arithmetic-self-play-episodes.js";
import { clusterNames, problemsOfSplit } from "./arithmetic-task.js";
import { evaluateArithmetic } from "./evaluate-arithmetic.js";
import { heldOutExamples } from "./held-out-examples.js";
import type { Environment } from "../../environments/environment.js";
import { arithmeticClusterOutcomes } from "./arithmetic-cluster-outcomes.js";
import { choiceEntropy } from "./choice-entropy.js";
import { penaliseRepeatedProposals } from "./repeated-proposal-penalty.js";

/** The episode type whose artifacts are target clusters. */
const PROPOSE = "arithmetic-propose";
/** The sub-episode type of each solver attempt: the trajectories a PRM learns from. */
const SOLVE = "arithmetic-solve";

/** The options of the `arithmetic` environment (`selfplay train`'s main job). */
export const ArithmeticEnvironmentOptionsSchema = z.strictObject({
  /** Proposals per step; each valid one gets `solvers` attempts. Default 32. */
  proposals: z.number().int().min(1).default(32),
  /** Solver sub-episodes per valid problem: the GRPO group. Default 8. */
  solvers: z.number().int().min(1).default(8),
  /** The solvers' pass rate the proposer is paid for approaching (Gaussian reward). Default 0.5. */
  targetPassRate: z.number().min(0).max(1).default(0.5),
  /** σ of the proposer's Gaussian reward. Default 0.2. */
  targetSigma: z.number().positive().default(0.2),
  /**
   * R-Zero's repetition penalty: a valid problem proposed n times in one
   * step loses this × (n − 1) / n of its proposer reward on each copy. 0
   * turns it off. Default 0.
   */
  repetitionPenalty: z.number().min(0).default(0),
  /** Held-out problems per evaluation (greedy). Default 500. */
  evaluateProblems: z.number().int().min(1).default(500),
});
export type ArithmeticEnvironmentOptions = z.input<typeof ArithmeticEnvironmentOptionsSchema>;

/**
 * Proposer/solver self-play on arithmetic with one policy in both roles: the
 * proposer gets a target cluster and a Gaussian reward around a pass rate of
 * its problem's solver attempts; the solvers are rewarded by exact match.
 * Clusters are the 15 problem families; the evaluation is greedy accuracy on
 * held-out problems.
 */
export function createArithmeticEnvironment(options?: JsonValue): Environment {
  const parsed = parseInput(ArithmeticEnvironmentOptionsSchema, options ?? {}, { fieldName: (path) => `environment.${path.map(String).join(".")}` });
  const episodes = arithmeticSelfPlayEpisodeModule({ solvers: parsed.solvers, reward: { kind: "gaussian", target: parsed.targetPassRate, sigma: parsed.targetSigma } });
  const firstTasks = new Map<string, string>();
  const shares: Record<string, number> = {};
  for (const problem of problemsOfSplit("train")) {
    if (!firstTasks.has(problem.cluster)) firstTasks.set(problem.cluster, taskText(solverMessages(problem.text)));
    shares[problem.cluster] = (shares[problem.cluster] ?? 0) + 1;
  }
  const heldOut = heldOutExamples(parsed.evaluateProblems);
  return {
    name: "arithmetic",
    episodes,
    stores: { [PROPOSE]: ArtifactStore.of(clusterNames().map((cluster) => ({ cluster }))) },
    plan: [{ episodeType: PROPOSE, count: parsed.proposals }],
    clusters: {
      episodeType: PROPOSE,
      names: clusterNames(),
      of: (artifact) => String((artifact as { cluster?: unknown } | null)?.cluster),
      // The store holds one artifact per cluster; the training problems are spread 37 to 5,524 a cluster (two-digit pairs are 81% of them, and of the held-out draw).
      shares,
      outcomes: arithmeticClusterOutcomes,
      firstTask: (cluster) => firstTasks.get(cluster) ?? cluster,
      // The GRPO group is a proposal's solvers: adaptive group sizing asks for another count in the artifact.
      subEpisodeGroups: { size: parsed.solvers, withSize: (artifact, size) => ({ ...(artifact as { cluster: string }), solvers: size }) },
    },
    // The frontier's PRM scores solver tasks; the proposer's reward is its solvers' pass rate, not a verdict on its own prefixes.
    labelledEpisodeTypes: [SOLVE],
    evaluate: async (client, options = {}) => evaluateArithmetic(client, heldOut, options),
    evaluatesPassAtK: true,
    // One optimizer step per update over the whole batch (~130 records with a non-zero advantage). Pilots on the shipped base:
    // 32 × 4 with minibatches of 64 at lr 5e-4 swung between 33% and 43% held-out; 16 × 8 at 1e-3 collapsed (34.6% → 19.6% in
    // 10 steps); this setting went 34.6% → 48.0% in 40 steps.
    trainingDefaults: { trainer: { algorithm: "grpo", epochs: 1, minibatchSize: 512, optimizer: { learningRate: 3e-4, weightDecay: 0 } } },
    ...(parsed.repetitionPenalty > 0 && { adjustStepRewards: (results: readonly GenerateResult[]) => penaliseRepeatedProposals(results, parsed.repetitionPenalty) }),
    summarise: (results) => arithmeticStepSummary(results, parsed.targetPassRate),
    summariseRun: (metricLines) => summariseProposerTargetGap(metricLines, { targetPassRate: parsed.targetPassRate }),
  };
}

/** The proposer's and solvers' figures of one step. */
function arithmeticStepSummary(results: readonly GenerateResult[], target: number): Record<string, number> {
  const clusters: string[] = [];
  const problems = new Set<string>();
  let proposerReward = 0;
  let proposals = 0;
  let valid = 0;
  let attempts = 0;
  let solved = 0;
  let gapSum = 0;
  for (const result of results) {
    if (result.outcome.status !== "scored") continue;
    proposals++;
    proposerReward += result.rewards.proposer ?? 0;
    if (typeof result.rollout.artifacts.cluster === "string") clusters.push(result.rollout.artifacts.cluster);
    if (result.rollout.artifacts.verdict !== "valid") continue;
    valid++;
    problems.add(String(result.rollout.artifacts.problem));
    const rewards = result.children.filter((child) => child.outcome.status === "scored").map((child) => child.rewards.solver ?? 0);
    attempts += rewards.length;
    const passes = rewards.filter((reward) => reward === 1).length;
    solved += passes;
    gapSum += Math.abs(passes / Math.max(rewards.length, 1) - target);
  }
  return {
    proposerReward: proposerReward / Math.max(proposals, 1),
    /** Share of solver attempts that were right. */
    solveRate: solved / Math.max(attempts, 1),
    /** Mean over valid proposals of |pass rate − target|. */
    passRateGap: gapSum / Math.max(valid, 1),
    /** Share of proposals that were valid problems of the asked cluster. */
    validProposals: valid / Math.max(results.length, 1),
    /** Distinct problems among the valid proposals: below 1 when the proposer writes a problem more than once a step. */
    distinctProblems: problems.size / Math.max(valid, 1),
    /** Entropy (nats) of the clusters the proposer's problems fell in: low means it keeps writing one kind. */
    proposerClusterEntropy: choiceEntropy(clusters),
  };
}

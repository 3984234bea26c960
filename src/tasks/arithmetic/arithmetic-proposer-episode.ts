import { z } from "zod";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { Episode } from "../../core/episodes/episode.js";
import { HeldOutProblemError } from "./errors/index.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { isHeldOut } from "../../core/held-out/held-out-rule.js";
import type { JsonObject } from "../../core/json.js";
import type { DifficultyReward } from "../../core/rewards/difficulty-reward.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import type { MonteCarloVerifier } from "../../core/verifiers/monte-carlo-verifier.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import { parseArithmeticProblem } from "./arithmetic-problem.js";
import { clusterName, clusterOf } from "./arithmetic-cluster.js";
import { proposerMessages } from "./arithmetic-prompts.js";
import { ARITHMETIC_HELD_OUT } from "./arithmetic-task.js";
import { solverPassRateVerifier } from "../proposer-solver/solver-pass-rate-verifier.js";

const ArithmeticProposeArtifactSchema = z.object({
  cluster: z.string().min(1),
  /** Solver attempts for this proposal, when adaptive group sizing sets them; default the episode's `solvers`. */
  solvers: z.number().int().min(1).optional(),
});
export type ArithmeticProposeArtifact = z.infer<typeof ArithmeticProposeArtifactSchema>;

/** The proposer of the arithmetic self-play: a cluster name → a problem in it. */
export const ARITHMETIC_PROPOSER_ROLE: Role = RoleSchema.parse({ id: "proposer", sampler: { maxTokens: 8 } });

export interface ArithmeticProposerEpisodeOptions {
  /** Solver attempts per valid problem. Default 4. */
  solvers?: number;
  /** The pass rate the proposer is paid for approaching. Default Gaussian around 0.5, σ 0.2. */
  reward?: DifficultyReward;
  /** Reward of a reply that is no problem, or a problem outside the asked cluster. Default −1. */
  invalidProblemReward?: number;
}

/** What the proposer wrote and what the environment made of it. */
export type ProposalVerdict = "valid" | "unparsable" | "wrong-cluster" | "held-out";

interface ArithmeticProposerState {
  verdict: ProposalVerdict;
  problem: string | null;
  answer: number | null;
  cluster: string | null;
}

/**
 * Self-play on arithmetic: the proposer is asked for a problem of a target
 * cluster; the environment parses it, computes its true answer and checks
 * the cluster; N solver sub-episodes answer it; the proposer is paid by a
 * difficulty-targeting reward of their pass rate. A held-out problem is
 * dropped — the rollout fails at scoring, so nothing of it is trained on.
 */
export class ArithmeticProposerEpisode extends Episode<ArithmeticProposeArtifact, ArithmeticProposerState> {
  readonly type = "arithmetic-propose";
  readonly roles = [ARITHMETIC_PROPOSER_ROLE];
  readonly verifier: Verifier;
  protected readonly artifactSchema = ArithmeticProposeArtifactSchema;
  private readonly solvers: number;

  constructor(options: ArithmeticProposerEpisodeOptions = {}) {
    super();
    this.solvers = options.solvers ?? 4;
    if (!Number.isInteger(this.solvers) || this.solvers < 1) throw new InvalidInputError("solvers", "an integer ≥ 1", options.solvers);
    this.verifier = new ArithmeticProposerVerifier(options.reward ?? { kind: "gaussian", target: 0.5, sigma: 0.2 }, options.invalidProblemReward ?? -1);
  }

  async rollout(context: EpisodeContext, artifact: ArithmeticProposeArtifact): Promise<ArithmeticProposerState> {
    const response = await context.callModel("proposer", proposerMessages(artifact.cluster));
    const parsed = parseArithmeticProblem(response.text);
    if (!parsed) return { verdict: "unparsable", problem: null, answer: null, cluster: null };
    const [left, right] = parsed.text.split(/[+-]/).map(Number) as [number, number];
    const operation = parsed.text.includes("+") ? "add" : "subtract";
    const cluster = left < 100 && right < 100 ? clusterName(clusterOf(left, operation, right)) : "out-of-range";
    const state = { problem: parsed.text, answer: parsed.answer, cluster };
    if (isHeldOut(parsed.text, ARITHMETIC_HELD_OUT)) return { verdict: "held-out", ...state };
    if (cluster !== artifact.cluster) return { verdict: "wrong-cluster", ...state };
    const solve = { episodeType: "arithmetic-solve", artifact: { problem: parsed.text, answer: String(parsed.answer), cluster } };
    await context.runSubEpisodes(Array.from({ length: artifact.solvers ?? this.solvers }, () => solve));
    return { verdict: "valid", ...state };
  }

  finalize(state: ArithmeticProposerState, artifact: ArithmeticProposeArtifact): JsonObject {
    return { targetCluster: artifact.cluster, ...state };
  }
}

class ArithmeticProposerVerifier implements Verifier {
  private readonly monteCarlo: MonteCarloVerifier;

  constructor(reward: DifficultyReward, private readonly invalidProblemReward: number) {
    this.monteCarlo = solverPassRateVerifier(reward);
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    const verdict = rollout.artifacts["verdict"];
    if (verdict === "held-out") throw new HeldOutProblemError(String(rollout.artifacts["problem"]));
    if (verdict !== "valid") return { rewards: { proposer: this.invalidProblemReward }, details: { verdict: String(verdict) } };
    const output = await this.monteCarlo.score(rollout, context);
    return { ...output, details: { ...output.details, verdict: "valid" } };
  }
}

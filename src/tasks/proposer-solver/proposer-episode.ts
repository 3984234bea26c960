import { z } from "zod";
import { Episode } from "../../core/episodes/episode.js";
import type { EpisodeContext } from "../../core/episodes/episode-context.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject } from "../../core/json.js";
import type { DifficultyReward } from "../../core/rewards/difficulty-reward.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import { RoleSchema, type Role } from "../../core/schemas/role.js";
import type { MonteCarloVerifier } from "../../core/verifiers/monte-carlo-verifier.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import { parseArithmeticProblem, type ArithmeticProblem } from "../arithmetic/arithmetic-problem.js";
import { solverPassRateVerifier } from "./solver-pass-rate-verifier.js";

const ProposeArtifactSchema = z.object({ topic: z.string().min(1) });
export type ProposeArtifact = z.infer<typeof ProposeArtifactSchema>;

export interface ProposerEpisodeOptions {
  /** Solver sub-episodes per valid problem. Default 4. */
  solvers?: number;
  /** Turns the solvers' pass rate into the proposer's reward. Default Gaussian around 0.5, σ 0.2. */
  reward?: DifficultyReward;
  /** Reward for a reply that is not a problem. Default −1, below every valid problem's. */
  invalidProblemReward?: number;
}

interface ProposerState {
  problem: ArithmeticProblem | undefined;
}

export const PROPOSER_ROLE: Role = RoleSchema.parse({
  id: "proposer",
  systemPrompt: "You write arithmetic problems for a student. Reply with the problem only, like 12+7 or 30-4.",
  sampler: { maxTokens: 12 },
});

/**
 * The proposer writes a problem; N solver sub-episodes attempt it; the proposer
 * is rewarded from their pass rate by a difficulty-targeting reward, so it
 * learns to write problems the solver gets right about half the time.
 */
export class ProposerEpisode extends Episode<ProposeArtifact, ProposerState> {
  readonly type = "propose";
  readonly roles = [PROPOSER_ROLE];
  readonly verifier: Verifier;
  protected readonly artifactSchema = ProposeArtifactSchema;
  private readonly solvers: number;

  constructor(options: ProposerEpisodeOptions = {}) {
    super();
    this.solvers = options.solvers ?? 4;
    if (!Number.isInteger(this.solvers) || this.solvers < 1) throw new InvalidInputError("solvers", "an integer ≥ 1", options.solvers);
    this.verifier = new ProposerVerifier(
      options.reward ?? { kind: "gaussian", target: 0.5, sigma: 0.2 },
      options.invalidProblemReward ?? -1,
    );
  }

  async rollout(context: EpisodeContext, artifact: ProposeArtifact): Promise<ProposerState> {
    const response = await context.callModel("proposer", [
      { role: "user", content: `Write one ${artifact.topic} problem.` },
    ]);
    const problem = parseArithmeticProblem(response.text);
    if (problem) {
      const solve = { episodeType: "solve", artifact: { problem: problem.text, answer: String(problem.answer) } };
      await context.runSubEpisodes(Array.from({ length: this.solvers }, () => solve));
    }
    return { problem };
  }

  finalize(state: ProposerState, artifact: ProposeArtifact): JsonObject {
    return {
      topic: artifact.topic,
      valid: state.problem !== undefined,
      problem: state.problem?.text ?? null,
      answer: state.problem?.answer ?? null,
    };
  }
}

/** A malformed problem earns the fixed invalid reward; a valid one is scored Monte-Carlo from its solvers. */
class ProposerVerifier implements Verifier {
  private readonly monteCarlo: MonteCarloVerifier;

  constructor(reward: DifficultyReward, private readonly invalidProblemReward: number) {
    this.monteCarlo = solverPassRateVerifier(reward);
  }

  async score(rollout: Rollout, context: ScoringContext): Promise<VerifierOutput> {
    if (rollout.artifacts["valid"] !== true) {
      return { rewards: { proposer: this.invalidProblemReward }, details: { valid: false } };
    }
    return this.monteCarlo.score(rollout, context);
  }
}

/** Problem families the CLI's proposer-solver run samples from. */
export const ARITHMETIC_TOPICS: readonly string[] = [
  "one-digit addition",
  "two-digit addition",
  "one-digit subtraction",
  "two-digit subtraction",
];

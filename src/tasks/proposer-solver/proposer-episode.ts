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
import { isHeldOut } from "../../core/held-out/held-out-rule.js";
import { parseArithmeticProblem, type ArithmeticProblem } from "../arithmetic/arithmetic-problem.js";
import { ARITHMETIC_HELD_OUT } from "../arithmetic/arithmetic-task.js";
import { HeldOutProblemError } from "../arithmetic/errors/index.js";
import { JSON_PROPOSAL_GRAMMAR, parseJsonProposal } from "./json-proposal.js";
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
  /**
   * How a problem is written: `text`, `a+b` or `a-b` on the first line (what the bundled base writes); `json`,
   * `{"problem": "<expression>"}` under a grammar (JSON_PROPOSAL_GRAMMAR), any expression of `+`, `-`, `*` and
   * parentheses, which the executor evaluates (a chat model's). Default `text`.
   */
  proposal?: ProposalFormat;
  /** Completion tokens of a proposal. Default 12. */
  maxTokens?: number;
  /**
   * Drop a proposal that is a problem of the arithmetic task's held-out split (`a±b`, the problems a held-out
   * evaluation asks): its rollout is dropped at scoring (HeldOutProblemError) and no solver sees it. Default false.
   */
  dropHeldOut?: boolean;
}

/** How the proposer writes a problem: plain `a±b` text, or JSON under a grammar. */
export type ProposalFormat = "text" | "json";

interface ProposerState {
  problem: ArithmeticProblem | undefined;
  heldOut: boolean;
}

/** The proposer as the bundled base plays it: `a+b` or `a-b` in plain text. */
export const PROPOSER_ROLE: Role = RoleSchema.parse({
  id: "proposer",
  systemPrompt: "You write arithmetic problems for a student. Reply with the problem only, like 12+7 or 30-4.",
  sampler: { maxTokens: 12 },
});

/** The JSON proposer's system prompt: the grammar holds the form, the prompt says what goes in it. */
const JSON_PROPOSER_PROMPT = 'You write arithmetic problems for a student. Reply with JSON like {"problem": "12+7"}: whole numbers with +, - or *.';

/**
 * The proposer writes a problem (plain `a±b`, or JSON under a grammar that the
 * executor evaluates); N solver sub-episodes attempt it; the proposer is
 * rewarded from their pass rate by a difficulty-targeting reward, so it learns
 * to write problems the solver gets right about half the time.
 */
export class ProposerEpisode extends Episode<ProposeArtifact, ProposerState> {
  readonly type = "propose";
  readonly roles: readonly Role[];
  readonly verifier: Verifier;
  protected readonly artifactSchema = ProposeArtifactSchema;
  private readonly solvers: number;
  private readonly proposal: ProposalFormat;
  private readonly dropHeldOut: boolean;

  constructor(options: ProposerEpisodeOptions = {}) {
    super();
    this.solvers = options.solvers ?? 4;
    if (!Number.isInteger(this.solvers) || this.solvers < 1) throw new InvalidInputError("solvers", "an integer ≥ 1", options.solvers);
    this.proposal = options.proposal ?? "text";
    this.dropHeldOut = options.dropHeldOut ?? false;
    const systemPrompt = this.proposal === "json" ? JSON_PROPOSER_PROMPT : PROPOSER_ROLE.systemPrompt;
    this.roles = [RoleSchema.parse({ ...PROPOSER_ROLE, systemPrompt, sampler: { maxTokens: options.maxTokens ?? PROPOSER_ROLE.sampler.maxTokens } })];
    this.verifier = new ProposerVerifier(
      options.reward ?? { kind: "gaussian", target: 0.5, sigma: 0.2 },
      options.invalidProblemReward ?? -1,
    );
  }

  async rollout(context: EpisodeContext, artifact: ProposeArtifact): Promise<ProposerState> {
    const messages = [{ role: "user" as const, content: `Write one ${artifact.topic} problem.` }];
    const response = await context.callModel("proposer", messages, this.proposal === "json" ? { constraint: JSON_PROPOSAL_GRAMMAR } : undefined);
    const problem = this.proposal === "json" ? parseJsonProposal(response.text) : parseArithmeticProblem(response.text);
    // The held-out split is a±b problems by their canonical text: the executor writes them as the base's parser does.
    const heldOut = this.dropHeldOut && problem !== undefined && parseArithmeticProblem(problem.text) !== undefined && isHeldOut(problem.text, ARITHMETIC_HELD_OUT);
    if (problem && !heldOut) {
      const solve = { episodeType: "solve", artifact: { problem: problem.text, answer: String(problem.answer) } };
      await context.runSubEpisodes(Array.from({ length: this.solvers }, () => solve));
    }
    return { problem, heldOut };
  }

  finalize(state: ProposerState, artifact: ProposeArtifact): JsonObject {
    return {
      topic: artifact.topic,
      valid: state.problem !== undefined,
      problem: state.problem?.text ?? null,
      answer: state.problem?.answer ?? null,
      ...(state.heldOut && { heldOut: true }),
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
    if (rollout.artifacts["heldOut"] === true) throw new HeldOutProblemError(String(rollout.artifacts["problem"]));
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

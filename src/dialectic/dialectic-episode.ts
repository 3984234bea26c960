import { z } from "zod";
import { Episode } from "../core/episodes/episode.js";
import type { EpisodeContext } from "../core/episodes/episode-context.js";
import { InvalidInputError } from "../core/errors/index.js";
import type { JsonObject } from "../core/json.js";
import { parseInput } from "../core/parse-input.js";
import { RoleSchema, type Role } from "../core/schemas/role.js";
import { CriticEnsemble, type ApprovalRule } from "./critic-ensemble.js";
import type { Critic, StructuredAsk } from "./critic.js";
import type { DialecticOutcome } from "./dialectic-outcome.js";
import { DialecticSettingsSchema, type DialecticSettings, type DialecticSettingsInput } from "./dialectic-settings.js";
import { DialecticVerifier } from "./dialectic-verifier.js";
import { runDialecticLoop, type DialecticPorts } from "./run-dialectic-loop.js";
import { StandardCritic } from "./standard-critic.js";

export const DialecticArtifactSchema = z.object({
  /** What the proposer must produce. */
  task: z.string().min(1),
  /** Extra context for the proposer. Default: none. */
  context: z.string().default(""),
});
export type DialecticArtifact = z.infer<typeof DialecticArtifactSchema>;

/** A score from 0 to 1, or a pass (1) / fail (0). */
export type CheckResult = number | boolean;

export interface TrainableCriticOptions {
  /**
   * Scores a proposal independently of every critic (runs its tests, compares
   * it with ground truth), from 0 to 1. The critic is rewarded for agreeing
   * with it, never against the proposer.
   */
  check: (proposal: string, artifact: DialecticArtifact) => CheckResult | Promise<CheckResult>;
}

export interface DialecticEpisodeOptions extends DialecticSettingsInput {
  /** Episode type requests use. Default `dialectic`. */
  type?: string;
  /** The critics judging each proposal. Default one StandardCritic. */
  critics?: readonly Critic[];
  /** How several critics' approvals combine. Default `majority`. */
  approval?: ApprovalRule;
  /** Tokens per proposal. Default 256. */
  proposerMaxTokens?: number;
  /** Weight of the score's rise over the first round in the proposer's reward. Default 0.5. */
  improvementWeight?: number;
  /**
   * Make the critic a trainable Role (`critic`) instead of a judge: its
   * critiques become Steps and it is rewarded for agreeing with `check`. Off by
   * default: the critic is a judge and only the proposer learns.
   */
  trainableCritic?: TrainableCriticOptions;
}

export const PROPOSER_SYSTEM_PROMPT = "You are a proposal generator: you write a response to a task and refine it from a critic's feedback.";

/**
 * The dialectic loop as an episode: the proposer is a Role, so every proposal
 * is a Step trained on; the critics are judges (`context.judgeObject`, the
 * strict JSON path) unless `trainableCritic` makes them the `critic` Role.
 * The proposer is rewarded from the final critic score and its improvement.
 */
export class DialecticEpisode extends Episode<DialecticArtifact, DialecticOutcome> {
  readonly type: string;
  readonly roles: readonly Role[];
  readonly verifier: DialecticVerifier;
  protected readonly artifactSchema = DialecticArtifactSchema;
  readonly settings: DialecticSettings;
  private readonly ensemble: CriticEnsemble;
  private readonly trainableCritic: TrainableCriticOptions | undefined;

  constructor(options: DialecticEpisodeOptions = {}) {
    super();
    const { type, critics, approval, proposerMaxTokens, improvementWeight: weight, trainableCritic, ...settings } = options;
    this.type = type ?? "dialectic";
    // The rest are the loop's settings, checked strictly: a misspelt option is an error, not a default.
    this.settings = parseInput(DialecticSettingsSchema, settings);
    this.ensemble = new CriticEnsemble(critics ?? [new StandardCritic()], {
      ...(approval && { approval }),
      similarityThreshold: this.settings.issueSimilarityThreshold,
    });
    this.trainableCritic = trainableCritic;
    const improvementWeight = weight ?? 0.5;
    if (!Number.isFinite(improvementWeight) || improvementWeight < 0) {
      throw new InvalidInputError("improvementWeight", "a number ≥ 0", weight);
    }
    this.verifier = new DialecticVerifier({ improvementWeight, trainableCritic: this.trainableCritic !== undefined });
    const proposer = RoleSchema.parse({
      id: "proposer",
      systemPrompt: PROPOSER_SYSTEM_PROMPT,
      sampler: { maxTokens: proposerMaxTokens ?? 256 },
    });
    // The critic's messages carry their own system prompt, so its Role adds none.
    this.roles = this.trainableCritic ? [proposer, RoleSchema.parse({ id: "critic" })] : [proposer];
  }

  async rollout(context: EpisodeContext, artifact: DialecticArtifact): Promise<DialecticOutcome> {
    const ask: StructuredAsk = this.trainableCritic
      ? async (messages, schema, options) => {
          const { value, response } = await context.callModelForObject("critic", messages, schema, options);
          return { value, text: response.text };
        }
      : (messages, schema, options) => context.judgeObject(messages, schema, options);
    const check = this.trainableCritic?.check;
    const ports: DialecticPorts = {
      propose: async (messages, temperature) => (await context.callModel("proposer", messages, { sampler: { temperature } })).text,
      critique: (task, proposal) => this.ensemble.evaluate(ask, task, proposal),
      ...(check && { check: async (proposal: string) => checkScore(await check(proposal, artifact)) }),
    };
    return runDialecticLoop(ports, artifact, this.settings);
  }

  finalize(state: DialecticOutcome, artifact: DialecticArtifact): JsonObject {
    return { task: artifact.task, context: artifact.context, ...state };
  }
}

function checkScore(result: CheckResult): number {
  const score = typeof result === "boolean" ? Number(result) : result;
  if (!(score >= 0 && score <= 1)) throw new InvalidInputError("trainableCritic.check", "a boolean or a number from 0 to 1", result);
  return score;
}
